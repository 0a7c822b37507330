// POST /v1/embeddings and /v1/moderations: JSON in, JSON out, through the OpenAI family's passthrough.
// Embeddings are priced on prompt tokens (upstream usage, else counted); moderations are free (OpenAI
// does not charge for them): nothing is reserved, the call is still logged.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { estimateEmbedding } from '../billing/estimate';
import { priceEmbedding } from '../billing/price';
import { countText } from '../billing/tokens';
import { asRecord, isRecord, num } from '../providers/shape';
import type { PassthroughEndpoint } from '../providers/types';
import type { Gateway } from './gateway';
import { expectInput, expectTypes, inputText, parseJsonBody, sendPassthrough } from './passthrough';
import { badUpstreamBody, isFailed, readJson } from './relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall } from './run';

/** Tokens of `input` when the upstream gave no usage: text counted, token arrays by length. */
function countInput(input: unknown, model: string): number {
  if (typeof input === 'string') return countText(input, model);
  if (!Array.isArray(input)) return 0;
  if (input.every((x) => typeof x === 'number')) return input.length;
  return input.reduce<number>((n, x) => n + countInput(x, model), 0);
}

/** Sends, reads the JSON answer, rewrites its model and hands it to `price` before replying. */
async function jsonPassthrough(
  gw: Gateway,
  ctx: AttemptContext,
  endpoint: PassthroughEndpoint,
  body: Record<string, unknown>,
  price: (json: Record<string, unknown>) => Omit<Finished, 'kind' | 'status'>,
): Promise<Finished | Failed> {
  const res = await sendPassthrough(gw, ctx, endpoint, { json: body });
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json)) return badUpstreamBody();
  const done: Finished = { kind: 'finished', status: LogStatus.Success, ...price(json) };
  if ('model' in json) json.model = ctx.plan.requested;
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

export function embeddings(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseJsonBody(request.body);
  expectInput(body);
  expectTypes(body, { encoding_format: 'string', dimensions: 'number', user: 'string' });
  return runCall(gw, request, reply, {
    endpoint: 'embeddings',
    path: '/v1/embeddings',
    requested: body.model,
    stream: false,
    prompt: inputText(body.input),
    estimate: (r) => estimateEmbedding({ quotas: r.model.quotas, type: r.model.type, input: body.input, discountBp: r.discountBp }).quota,
    attempt: (ctx) =>
      jsonPassthrough(gw, ctx, 'embeddings', body, (json) => {
        const { model, discountBp } = ctx.plan.resolution;
        const prompt = num(asRecord(json.usage).prompt_tokens) || countInput(body.input, ctx.route.target.model);
        const price = priceEmbedding({ quotas: model.quotas, type: model.type, prompt_tokens: prompt, discountBp });
        json.usage = { prompt_tokens: prompt, total_tokens: prompt };
        return { usage: { prompt_tokens: prompt, completion_tokens: 0 }, quota: price.quota, tokens: prompt };
      }),
  });
}

/** OpenAI's default when a moderation request names no model; it must exist in the catalogue. */
const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

export function moderations(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const raw = request.body;
  const body = parseJsonBody(isRecord(raw) && raw.model === undefined ? { ...raw, model: DEFAULT_MODERATION_MODEL } : raw);
  expectInput(body);
  const text = inputText(body.input);
  return runCall(gw, request, reply, {
    endpoint: 'moderations',
    path: '/v1/moderations',
    requested: body.model,
    stream: false,
    prompt: text,
    estimate: () => 0,
    attempt: (ctx) =>
      jsonPassthrough(gw, ctx, 'moderations', body, (json) => {
        const flagged = Array.isArray(json.results) && json.results.some((r) => asRecord(r).flagged === true);
        // Free, but the log shows what was asked and whether it was flagged.
        return { quota: 0, tokens: countText(text, ctx.route.target.model), completion: flagged ? 'flagged' : 'not flagged' };
      }),
  });
}
