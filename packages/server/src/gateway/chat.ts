// POST /v1/chat/completions: the OpenAI chat endpoint, JSON and SSE, over any provider family.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { estimateChat } from '../billing/estimate';
import { chatExtras } from '../billing/media';
import { priceChat, type BillableUsage } from '../billing/price';
import { countChatPrompt, countCompletion, mergeUsage, needsLocalCount } from '../billing/tokens';
import { providers } from '../providers/index';
import type { ChatChunk, ChatRequest, StreamStep, Usage } from '../providers/types';
import { CallStatus } from './call-log';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { applyPreset } from './resolve';
import { runCall, type AttemptContext, type Failed, type Finished } from './run';
import { formatEvent, readEvents } from './sse';
import { badUpstreamBody, brokenStream, emptyStream, isFailed, readJson, sendOrFail, SseOut } from './relay';
import type { SnapModel } from './snapshot';

/** The shape checks a chat body needs before anything else reads it. */
export function parseChatBody(body: unknown): ChatRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || !b.model.trim()) throw new GatewayError(400, 'model_required', 'You must provide a model parameter.');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw invalidRequest("'messages' must be a non-empty array.", 'invalid_messages');
  for (const [i, m] of b.messages.entries()) {
    if (!m || typeof m !== 'object' || typeof (m as { role?: unknown }).role !== 'string') throw invalidRequest(`'messages[${i}]' must be an object with a role.`, 'invalid_messages');
  }
  if (b.stream !== undefined && typeof b.stream !== 'boolean') throw invalidRequest("'stream' must be a boolean.", 'invalid_type');
  for (const f of ['max_tokens', 'max_completion_tokens', 'n', 'temperature', 'top_p']) {
    if (b[f] !== undefined && b[f] !== null && typeof b[f] !== 'number') throw invalidRequest(`'${f}' must be a number.`, 'invalid_type');
  }
  return b as unknown as ChatRequest;
}

/** Billing rule of a model: multimodal models may be billed by the system's own count (§1.12). */
export function billingRule(model: SnapModel): 1 | 2 {
  return model.quotas.multimodal_quota?.billing_rule === 2 ? 2 : 1;
}

const lastUserText = (req: ChatRequest) => {
  const c = [...req.messages].reverse().find((m) => m.role === 'user')?.content;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => ('text' in p ? p.text : '')).join(' ') : '';
};

/** Prices a finished answer: the requested model's price (§1.3), the usage merged by the billing rule. */
export function settleChat(ctx: AttemptContext, body: ChatRequest, upstream: Usage | undefined, completion: string, aborted: boolean) {
  const { model, discountBp } = ctx.plan.resolution;
  const rule = billingRule(model);
  const local = needsLocalCount(upstream, rule, aborted)
    ? { prompt: countChatPrompt(body.messages, ctx.route.target.model, body.tools), completion: countCompletion(completion, ctx.route.target.model) }
    : { prompt: 0, completion: 0 };
  const usage: BillableUsage = mergeUsage(upstream, local, rule, aborted);
  const price = priceChat({ quotas: model.quotas, type: model.type, usage, discountBp, extras: chatExtras(body) });
  return { usage, price };
}

function upstreamBody(ctx: AttemptContext, body: ChatRequest): ChatRequest {
  return applyPreset(ctx.target, { ...body, model: ctx.route.target.model });
}

async function jsonAttempt(gw: Gateway, ctx: AttemptContext, body: ChatRequest): Promise<Finished | Failed> {
  const adapter = providers[ctx.route.family];
  const out = upstreamBody(ctx, body);
  const res = await sendOrFail(gw, ctx, adapter.chat.buildRequest(ctx.route.target, { ...out, stream: false }));
  if (isFailed(res)) return res;
  let parsed;
  try {
    parsed = adapter.chat.parseResponse(await readJson(res));
  } catch {
    return badUpstreamBody();
  }
  const answer = parsed.body;
  const completion = answer.choices.map((c) => (c.message.content ?? '') + (c.message.tool_calls ?? []).map((t) => t.function.arguments).join('')).join('\n');
  const { usage, price } = settleChat(ctx, body, parsed.usage, completion, false);
  // The client sees the model it asked for, whatever forwarding or replacement did (§1.4).
  answer.model = ctx.plan.requested;
  answer.usage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens };
  ctx.reply.header('content-type', 'application/json').send(answer);
  return { kind: 'finished', status: CallStatus.Success, usage, quota: price.quota, promptRatio: price.prompt_ratio, completionRatio: price.completion_ratio, completion, tokens: usage.total_tokens };
}

async function streamAttempt(gw: Gateway, ctx: AttemptContext, body: ChatRequest): Promise<Finished | Failed> {
  const adapter = providers[ctx.route.family];
  const out = upstreamBody(ctx, body);
  const res = await sendOrFail(gw, ctx, adapter.chat.buildRequest(ctx.route.target, { ...out, stream: true }));
  if (isFailed(res)) return res;

  const wantsUsage = body.stream_options?.include_usage === true;
  const sse = new SseOut(ctx);
  const write = (text: string) => sse.write(text);
  const state = adapter.chat.newStreamState();
  let usage: Usage | undefined;
  let completion = '';
  let midError: string | undefined;
  const emit = async (chunk: ChatChunk) => {
    sse.start();
    chunk.model = ctx.plan.requested;
    for (const c of chunk.choices) completion += (c.delta.content ?? '') + (c.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '').join('');
    if (chunk.usage && chunk.choices.length === 0 && !wantsUsage) return;
    if (chunk.usage && !wantsUsage) delete chunk.usage;
    await write(formatEvent(chunk));
  };
  try {
    for await (const event of readEvents(res.body)) {
      const step: StreamStep = adapter.chat.parseStreamEvent(event, state);
      if (step.usage) usage = { ...usage, ...step.usage };
      if (step.error) {
        if (!sse.started) return { kind: 'failed', error: step.error };
        midError = step.error.message;
        break;
      }
      for (const chunk of step.chunks) await emit(chunk);
      if (step.done) break;
    }
  } catch (err) {
    if (ctx.signal.aborted) {
      // The client left: bill what it was sent (§1.11), counted locally.
      const { usage: billed, price } = settleChat(ctx, body, undefined, completion, true);
      sse.end();
      return { kind: 'finished', status: CallStatus.Aborted, usage: billed, quota: price.quota, promptRatio: price.prompt_ratio, completionRatio: price.completion_ratio, completion, errMsg: 'client closed the connection', tokens: billed.total_tokens };
    }
    if (!sse.started) return brokenStream(err);
    midError = `The upstream stream broke: ${(err as Error).message}`;
  }
  // An upstream that ended without a single chunk: treat as a failure the next key may fix.
  if (!sse.started) return emptyStream();
  const aborted = midError !== undefined;
  const { usage: billed, price } = settleChat(ctx, body, aborted ? undefined : usage, completion, aborted);
  if (midError) await write(formatEvent({ error: { message: midError, type: 'upstream_error', code: 'stream_interrupted' } }));
  if (wantsUsage && aborted) await write(formatEvent({ id: `chatcmpl-${ctx.plan.traceId}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: ctx.plan.requested, choices: [], usage: { prompt_tokens: billed.prompt_tokens, completion_tokens: billed.completion_tokens, total_tokens: billed.total_tokens } }));
  await write(formatEvent('[DONE]'));
  sse.end();
  return {
    kind: 'finished',
    status: midError ? CallStatus.Failed : CallStatus.Success,
    usage: billed,
    quota: price.quota,
    promptRatio: price.prompt_ratio,
    completionRatio: price.completion_ratio,
    completion,
    errMsg: midError,
    tokens: billed.total_tokens,
  };
}

export async function chatCompletions(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseChatBody(request.body);
  return runCall(gw, request, reply, {
    endpoint: 'chat',
    path: '/v1/chat/completions',
    requested: body.model,
    stream: body.stream === true,
    chat: body,
    messages: body.messages,
    prompt: lastUserText(body),
    estimate: (r) => estimateChat({ quotas: r.model.quotas, type: r.model.type, request: body, discountBp: r.discountBp }).quota,
    attempt: (ctx) => (body.stream ? streamAttempt(gw, ctx, body) : jsonAttempt(gw, ctx, body)),
  });
}
