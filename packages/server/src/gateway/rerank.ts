// POST /v1/rerank: the Cohere/Jina rerank API ({model, query, documents, top_n?, return_documents?} →
// {id, results: [{index, relevance_score, document?}], usage | meta}), passed through to OpenAI-family
// hosts that serve it (Jina, vLLM, SiliconFlow, Xinference…) with the model replaced. Azure OpenAI and the
// Anthropic and Gemini families have no rerank API: 400 unsupported_endpoint, no upstream call.
//
// Where it goes: the agent's base URL + /v1/rerank, or the agent's path when it is written for rerank
// (ends with /rerank, e.g. Cohere's /v2/rerank); a path written for chat is ignored, as for every
// non-chat endpoint (providers/url.ts).
//
// Billing. The catalogue has no reranker type: a reranker is an embedding model (type 7, or 103) and its
// price block is the one embeddings use (text_quota, 103: multimodal_quota.text_quota), so an admin
// prices it like any embedding model:
// - ratio (per token): prompt_ratio × the tokens the upstream reports (`usage.total_tokens`, or
//   `meta.tokens` / `meta.billed_units` input + output tokens); an upstream that reports none (Cohere
//   reports only search units) is counted locally: each document is read together with the query, so
//   Σ (query + document) tokens, the way Jina counts.
// - fixed: fixed_quota per search unit (a query over up to 100 documents, Cohere's unit): the upstream's
//   `meta.billed_units.search_units`, else ceil(documents / 100). Under 100 documents that is a per-call price.
// Token pricing has no search-unit price to fall back on (a ratio is per token), so the local count, not a
// unit price, fills the gap: the same rule as embeddings without usage.
import { LogStatus } from '@fastgate/core/entities/call-log';
import { ModelType } from '@fastgate/core/entities/model';
import { BillingMethod } from '@fastgate/core/entities/model-quota';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastTokens } from '../billing/estimate';
import { chatBlock, priceEmbedding, priceUnit, type Price } from '../billing/price';
import { countText } from '../billing/tokens';
import { providers } from '../providers/index';
import { asRecord, isRecord, num, randomId, str } from '../providers/shape';
import { overrideUrl } from '../providers/url';
import { invalidParam } from './errors';
import type { Gateway } from './gateway';
import { expectTypes, parseJsonBody } from './passthrough';
import { badUpstreamBody, failure, isFailed, readJson, sendOrFail } from './relay';
import type { SnapModel } from './snapshot';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall } from './run';

/** Cohere's limit per request (Jina's is lower, the upstream says so). */
const MAX_DOCUMENTS = 1000;
/** Documents per search unit. */
const SEARCH_UNIT = 100;

interface Rerank {
  body: Record<string, unknown> & { model: string };
  query: string;
  documents: string[];
}

function parseRerank(raw: unknown): Rerank {
  const body = parseJsonBody(raw);
  if (typeof body.query !== 'string' || !body.query.trim()) throw invalidParam('query', "'query' must be a non-empty string.", 'invalid_type');
  const docs = body.documents;
  if (!Array.isArray(docs) || docs.length === 0) throw invalidParam('documents', "'documents' must be a non-empty array of strings or {text} objects.", 'invalid_type');
  if (docs.length > MAX_DOCUMENTS) throw invalidParam('documents', `'documents' holds ${docs.length} items; at most ${MAX_DOCUMENTS} are allowed.`, 'too_many_documents');
  const documents = docs.map((d, i) => {
    const text = typeof d === 'string' ? d : isRecord(d) ? str(d.text) : undefined;
    if (text === undefined) throw invalidParam(`documents[${i}]`, `'documents[${i}]' must be a string or an object with a 'text' string.`, 'invalid_type');
    return text;
  });
  expectTypes(body, { top_n: 'number', return_documents: 'boolean' });
  const topN = body.top_n;
  if (typeof topN === 'number' && !(Number.isInteger(topN) && topN >= 1)) throw invalidParam('top_n', "'top_n' must be a whole number of at least 1.", 'invalid_value');
  return { body, query: body.query, documents };
}

/** Tokens the upstream reports, in any of the hosts' shapes; undefined when it reports none. */
function reportedTokens(json: Record<string, unknown>): number | undefined {
  const usage = asRecord(json.usage);
  const meta = asRecord(json.meta);
  const tokens = asRecord(meta.tokens);
  const billed = asRecord(meta.billed_units);
  const n = num(usage.total_tokens) || num(usage.prompt_tokens) || num(tokens.input_tokens) + num(tokens.output_tokens) || num(billed.input_tokens) + num(billed.output_tokens);
  return n > 0 ? n : undefined;
}

const searchUnits = (documents: number) => Math.ceil(documents / SEARCH_UNIT);

/** The price of one rerank: by tokens, or by search units for a fixed-price model (see the header). */
function priceRerank(model: SnapModel, discountBp: number, tokens: number, units: number): Price {
  const type = model.type === ModelType.MultimodalEmbedding ? model.type : ModelType.Text;
  const block = chatBlock(model.quotas, type);
  if (block?.text.billing_method === BillingMethod.Fixed) return priceUnit({ fixed_quota: block.text.fixed_quota }, units, discountBp, block.name);
  return priceEmbedding({ quotas: model.quotas, type: model.type, prompt_tokens: tokens, discountBp });
}

/** The upstream URL: the agent's path when written for rerank, else the family's default. */
function rerankUrl(ctx: AttemptContext, defaultUrl: string): string {
  const { target } = ctx.route;
  const path = target.path.trim();
  return /\/rerank\/?(?:\?.*)?$/i.test(path) ? overrideUrl(target.baseUrl, path) : defaultUrl;
}

async function attempt(gw: Gateway, ctx: AttemptContext, call: Rerank): Promise<Finished | Failed> {
  const { family, target } = ctx.route;
  const passthrough = providers[family].passthrough;
  // Azure OpenAI has a passthrough but no rerank API: its deployment URL would only answer 404.
  if (!passthrough || family === 'azure') {
    return failure({ status: 400, type: 'invalid_request_error', code: 'unsupported_endpoint', message: `The model \`${ctx.plan.requested}\` does not support /v1/rerank (its provider has no rerank API).` });
  }
  const { url, headers } = passthrough(target, 'rerank', 'application/json');
  const res = await sendOrFail(gw, ctx, { url: rerankUrl(ctx, url), headers, body: JSON.stringify({ ...call.body, model: target.model }) });
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json) || !Array.isArray(json.results)) return badUpstreamBody();
  const { model, discountBp } = ctx.plan.resolution;
  const units = num(asRecord(asRecord(json.meta).billed_units).search_units) || searchUnits(call.documents.length);
  const queryTokens = countText(call.query, target.model);
  const tokens = reportedTokens(json) ?? call.documents.reduce((n, d) => n + queryTokens + countText(d, target.model), 0);
  const price = priceRerank(model, discountBp, tokens, units);
  json.id ??= randomId('rerank-');
  if ('model' in json) json.model = ctx.plan.requested;
  const done: Finished = {
    kind: 'finished',
    status: LogStatus.Success,
    usage: { prompt_tokens: tokens, completion_tokens: 0 },
    quota: price.quota,
    completion: `${json.results.length} result(s) of ${call.documents.length} document(s)`,
    tokens,
  };
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

export function rerank(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const call = parseRerank(request.body);
  // fastTokens is an upper bound of the real count, so the reservation covers a locally counted settle.
  const queryTokens = fastTokens(call.query);
  const estimatedTokens = call.documents.reduce((n, d) => n + queryTokens + fastTokens(d), 0);
  return runCall(gw, request, reply, {
    endpoint: 'rerank',
    path: '/v1/rerank',
    requested: call.body.model,
    stream: false,
    prompt: call.query,
    estimate: (r) => priceRerank(r.model, r.discountBp, estimatedTokens, searchUnits(call.documents.length)).quota,
    attempt: (ctx) => attempt(gw, ctx, call),
  });
}
