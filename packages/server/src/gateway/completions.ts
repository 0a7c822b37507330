// POST /v1/completions: OpenAI's legacy text completions, JSON and SSE, OpenAI family only. Priced like
// chat (text_quota of the requested model): the upstream's usage, each missing side counted locally.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { estimateChat, outputBounds } from '../billing/estimate';
import { outputLimitOf } from './models';
import { billingRuleOf, priceChat } from '../billing/price';
import { countText, mergeUsage, needsLocalCount } from '../billing/tokens';
import { openaiUsage } from '../providers/openai/chat';
import { mapOpenAIError } from '../providers/openai/error';
import { asArray, asRecord, isRecord, str, tryParse } from '../providers/shape';
import type { Usage } from '../providers/types';
import { invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { expectTypes, parseJsonBody, sendPassthrough } from './passthrough';
import { badUpstreamBody, brokenStream, emptyStream, failure, isFailed, readJson, SseOut, withoutKey } from './relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall } from './run';
import { formatEvent, readEvents } from './sse';

type CompletionBody = Record<string, unknown> & { model: string };

function parseBody(raw: unknown): CompletionBody {
  const body = parseJsonBody(raw);
  const p = body.prompt;
  if (p !== undefined && typeof p !== 'string' && !Array.isArray(p)) throw invalidRequest("'prompt' must be a string or an array.", 'invalid_type');
  expectTypes(body, { stream: 'boolean', max_tokens: 'number', n: 'number', best_of: 'number', temperature: 'number', top_p: 'number' });
  return body;
}

/** The prompt as text (token arrays cannot be read back without the model's tokenizer: left out). */
function promptText(prompt: unknown): string {
  if (typeof prompt === 'string') return prompt;
  return asArray(prompt)
    .filter((p): p is string => typeof p === 'string')
    .join('\n');
}

/** Prices the answer: the requested model's text price on the upstream usage, gaps counted locally. */
function settle(ctx: AttemptContext, prompt: string, upstream: Usage | undefined, text: string, aborted: boolean) {
  const { model, discountBp } = ctx.plan.resolution;
  const rule = billingRuleOf(model.quotas);
  const realModel = ctx.route.target.model;
  const local = needsLocalCount(upstream, rule, aborted) ? { prompt: countText(prompt, realModel), completion: countText(text, realModel) } : { prompt: 0, completion: 0 };
  const usage = mergeUsage(upstream, local, rule, aborted);
  const price = priceChat({ quotas: model.quotas, type: model.type, usage, discountBp });
  return {
    kind: 'finished' as const,
    status: aborted ? LogStatus.Aborted : LogStatus.Success,
    usage,
    quota: price.quota,
    promptRatio: price.prompt_ratio,
    completionRatio: price.completion_ratio,
    completion: text,
    tokens: usage.total_tokens,
  };
}

const choiceText = (json: unknown) =>
  asArray(asRecord(json).choices)
    .map((c) => str(asRecord(c).text) ?? '')
    .join('');

async function jsonAttempt(gw: Gateway, ctx: AttemptContext, body: CompletionBody, prompt: string): Promise<Finished | Failed> {
  const res = await sendPassthrough(gw, ctx, 'completions', { json: { ...body, stream: false, stream_options: undefined } });
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json) || !Array.isArray(json.choices)) return badUpstreamBody();
  const text = choiceText(json);
  const done = settle(ctx, prompt, openaiUsage(json.usage), text, false);
  json.model = ctx.plan.requested;
  json.usage = { prompt_tokens: done.usage.prompt_tokens, completion_tokens: done.usage.completion_tokens, total_tokens: done.usage.total_tokens };
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

async function streamAttempt(gw: Gateway, ctx: AttemptContext, body: CompletionBody, prompt: string): Promise<Finished | Failed> {
  const wantsUsage = asRecord(body.stream_options).include_usage === true;
  // Usage is always asked for upstream (as for chat); the client gets it only when it asked.
  const res = await sendPassthrough(gw, ctx, 'completions', { json: { ...body, stream: true, stream_options: { ...asRecord(body.stream_options), include_usage: true } } });
  if (isFailed(res)) return res;
  const sse = new SseOut(ctx);
  let usage: Usage | undefined;
  let text = '';
  let midError: string | undefined;
  try {
    for await (const event of readEvents(res.body)) {
      if (event.data.trim() === '[DONE]') break;
      const chunk = tryParse(event.data);
      if (!isRecord(chunk)) continue;
      if (chunk.error !== undefined && chunk.choices === undefined) {
        const error = mapOpenAIError(500, withoutKey(ctx.route.key, event.data));
        if (!sse.started) return failure(error);
        midError = error.message;
        break;
      }
      usage = openaiUsage(chunk.usage) ?? usage;
      text += choiceText(chunk);
      chunk.model = ctx.plan.requested;
      if (chunk.usage && !wantsUsage) {
        delete chunk.usage;
        if (asArray(chunk.choices).length === 0) continue;
      }
      await sse.write(formatEvent(chunk));
    }
  } catch (err) {
    if (ctx.signal.aborted) {
      sse.end();
      return { ...settle(ctx, prompt, undefined, text, true), errMsg: 'client closed the connection' };
    }
    if (!sse.started) return brokenStream(err);
    midError = `The upstream stream broke: ${(err as Error).message}`;
  }
  if (!sse.started) return emptyStream();
  const settled = settle(ctx, prompt, midError ? undefined : usage, text, midError !== undefined);
  const done = midError ? { ...settled, status: LogStatus.Failed, errMsg: midError } : settled;
  await ctx.finish(done);
  if (midError) await sse.write(formatEvent({ error: { message: midError, type: 'upstream_error', code: 'stream_interrupted' } }));
  await sse.write(formatEvent('[DONE]'));
  sse.end();
  return done;
}

export function completions(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseBody(request.body);
  const prompt = promptText(body.prompt);
  const stream = body.stream === true;
  // The reservation reads the prompt as one user message: a few tokens of chat overhead over the truth.
  const asChat = { model: body.model, messages: [{ role: 'user' as const, content: prompt }], max_tokens: body.max_tokens as number | undefined, n: body.n as number | undefined };
  return runCall(gw, request, reply, {
    endpoint: 'completions',
    path: '/v1/completions',
    requested: body.model,
    stream,
    prompt,
    estimate: (r) => estimateChat({ quotas: r.model.quotas, type: r.model.type, request: asChat, discountBp: r.discountBp, ...outputBounds(outputLimitOf(r.model)) }).quota,
    attempt: (ctx) => (stream ? streamAttempt(gw, ctx, body, prompt) : jsonAttempt(gw, ctx, body, prompt)),
  });
}
