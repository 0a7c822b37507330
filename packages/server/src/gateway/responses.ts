// POST /v1/responses: OpenAI's Responses API for any upstream.
// - An agent whose upstream speaks Responses (wire_api 'responses', OpenAI family or Azure): the body goes
//   as sent, the model replaced (native); events are relayed as they come, the usage read from the answer.
// - Any other upstream: the request becomes the canonical chat request (providers/openai/responses-ingress.ts)
//   and the answer is written back as a Response object or its event sequence. Features chat cannot
//   carry (built-in tools, file inputs) are a 400 naming them, never silently dropped.
// The gateway keeps responses itself (`store`, default true; response-store.ts): upstreams are always
// sent `store: false`, and previous_response_id is expanded here into the earlier turns, so a chain
// works whichever agent or key serves each turn. Billed and logged like chat.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { completionCap } from '../billing/estimate';
import { inputItems, newResponseMeta, ResponsesStream, chatToResponse, responsesToChat, withItemIds, type ResponseMeta } from '../providers/openai/responses-ingress';
import { azureHeaders } from '../providers/azure/api';
import { openaiHeaders } from '../providers/openai/api';
import { MIN_OUTPUT_TOKENS, responsesUrl, responsesUsage } from '../providers/openai/responses-upstream';
import type { InputItem, ResponseObject, ResponsesRequest } from '../providers/openai/responses-wire';
import { asArray, asRecord, isRecord, str, tryParse } from '../providers/shape';
import type { ChatRequest, UpstreamRequest, Usage } from '../providers/types';
import { admit } from './admit';
import { runChatCall, settledAnswer, type ChatWriter } from './chat';
import { GatewayError } from './errors';
import type { Gateway } from './gateway';
import type { Route } from './pick';
import { badUpstreamBody, isFailed, readJson, sendOrFail, SseOut } from './relay';
import { relayNativeStream } from './native-relay';
import { conversationBefore, deleteResponse, loadResponse, responseNotFound, saveResponse } from './response-store';
import type { AttemptContext, Failed, Finished } from './attempt';
import { formatEvent } from './sse';

const bad = (message: string, param: string, code = 'invalid_value') => new GatewayError(400, code, message, 'invalid_request_error', undefined, param);

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function checkItem(raw: unknown, i: number): void {
  const param = `input[${i}]`;
  if (!isRecord(raw)) throw bad(`${param} must be an object.`, param, 'invalid_type');
  const type = raw.type ?? 'message';
  if (type === 'message') {
    if (typeof raw.role !== 'string' || !ROLES.has(raw.role)) throw bad(`${param}.role must be one of user, assistant, system, developer.`, `${param}.role`);
    if (typeof raw.content !== 'string' && !(Array.isArray(raw.content) && raw.content.every(isRecord))) throw bad(`${param}.content must be a string or an array of content parts.`, `${param}.content`, 'invalid_type');
  } else if (type === 'function_call') {
    for (const f of ['call_id', 'name', 'arguments']) if (typeof raw[f] !== 'string') throw bad(`${param}.${f} must be a string.`, `${param}.${f}`, 'invalid_type');
  } else if (type === 'function_call_output') {
    if (typeof raw.call_id !== 'string') throw bad(`${param}.call_id must be a string.`, `${param}.call_id`, 'invalid_type');
    if (typeof raw.output !== 'string' && !Array.isArray(raw.output)) throw bad(`${param}.output must be a string or an array.`, `${param}.output`, 'invalid_type');
  } else if (type === 'item_reference') {
    throw bad('Item references are not supported: send the items, or continue with previous_response_id.', param, 'unsupported_parameter');
  }
}

/** The checks a Responses body needs before anything reads it, with OpenAI's `param` on each refusal. */
function checkResponsesBody(body: unknown): ResponsesRequest {
  if (!isRecord(body)) throw bad('The request body must be a JSON object.', '', 'invalid_request');
  if (typeof body.model !== 'string' || !body.model.trim()) throw new GatewayError(400, 'model_required', 'You must provide a model parameter.', 'invalid_request_error', undefined, 'model');
  const input = body.input;
  if (input === undefined || input === null) {
    if (!body.previous_response_id) throw bad("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  } else if (typeof input !== 'string') {
    if (!Array.isArray(input)) throw bad("'input' must be a string or an array of items.", 'input', 'invalid_type');
    input.forEach(checkItem);
  }
  for (const f of ['stream', 'store', 'parallel_tool_calls'] as const) if (body[f] != null && typeof body[f] !== 'boolean') throw bad(`'${f}' must be a boolean.`, f, 'invalid_type');
  for (const f of ['temperature', 'top_p'] as const) if (body[f] != null && typeof body[f] !== 'number') throw bad(`'${f}' must be a number.`, f, 'invalid_type');
  if (body.max_output_tokens != null && !(Number.isInteger(body.max_output_tokens) && (body.max_output_tokens as number) > 0)) throw bad("'max_output_tokens' must be a positive integer.", 'max_output_tokens', 'invalid_type');
  for (const f of ['instructions', 'previous_response_id', 'user'] as const) if (body[f] != null && typeof body[f] !== 'string') throw bad(`'${f}' must be a string.`, f, 'invalid_type');
  if (body.tools != null && !(Array.isArray(body.tools) && body.tools.every(isRecord))) throw bad("'tools' must be an array of tools.", 'tools', 'invalid_type');
  for (const [i, t] of asArray(body.tools).entries()) {
    if (asRecord(t).type === 'function' && typeof asRecord(t).name !== 'string') throw bad(`tools[${i}].name must be a string.`, `tools[${i}].name`, 'invalid_type');
  }
  if (body.background === true) throw bad('Background responses are not supported by this gateway.', 'background', 'unsupported_parameter');
  if (body.conversation != null) throw bad('Conversations are not supported by this gateway: continue with previous_response_id.', 'conversation', 'unsupported_parameter');
  return body as ResponsesRequest;
}

/** An upstream that takes Responses requests as they are. */
const speaksResponses = (route: Route) => route.wire === 'responses' && (route.family === 'openai' || route.family === 'azure');

/** The text of an answer's output (messages, tool arguments), for the log and local counting. */
function outputText(output: unknown): string {
  return asArray(output)
    .map((raw) => {
      const item = asRecord(raw);
      if (item.type === 'function_call') return str(item.arguments) ?? '';
      return asArray(item.content).map((p) => str(asRecord(p).text) ?? '').join('');
    })
    .join('');
}

/** Earlier turns for a native upstream that keeps nothing (store: false): no item ids it would look up,
 *  and no reasoning it cannot read back (only encrypted reasoning travels). */
function forUpstream(items: InputItem[]): InputItem[] {
  return items
    .filter((i) => i.type !== 'reasoning' || !!i.encrypted_content)
    .map((i) => {
      const { id: _id, status: _status, ...rest } = i as InputItem & { id?: string; status?: string };
      return rest as InputItem;
    });
}

/** What every attempt of one create call shares. */
interface ResponsesCall {
  body: ResponsesRequest;
  /** Earlier turns (previous_response_id), expanded. */
  before: InputItem[];
  chat: ChatRequest;
  meta: ResponseMeta;
  /** Saves the finished response when `store` is on (before its last bytes go out). */
  keep(response: ResponseObject): Promise<void>;
}

/** The upstream's Response, made ours: our id and chain, the model the client asked for, its `store`. */
function asOurs(call: ResponsesCall, response: Record<string, unknown>): void {
  response.id = call.meta.id;
  response.model = call.meta.model;
  response.store = call.body.store !== false;
  response.previous_response_id = call.body.previous_response_id ?? null;
}

/** The client's body for an upstream that speaks Responses: its model, the earlier turns inlined, nothing stored there. */
function nativeRequest(ctx: AttemptContext, call: ResponsesCall, stream: boolean): UpstreamRequest {
  const { previous_response_id: _prev, ...rest } = call.body;
  const input = call.before.length ? [...forUpstream(call.before), ...inputItems(call.body.input)] : call.body.input;
  const { target, family } = ctx.route;
  // The completion limit the reservation pays for (run.ts `hold` may have lowered it on `chat`), at least what OpenAI takes.
  const cap = completionCap(call.chat);
  const limit = cap === undefined ? {} : { max_output_tokens: Math.max(MIN_OUTPUT_TOKENS, cap) };
  const body = JSON.stringify({ ...rest, ...limit, model: target.model, input, store: false, stream });
  return { url: responsesUrl(target, family === 'azure'), headers: family === 'azure' ? azureHeaders(target.key) : openaiHeaders(target.key), body };
}

async function nativeJson(gw: Gateway, ctx: AttemptContext, call: ResponsesCall): Promise<Finished | Failed> {
  const res = await sendOrFail(gw, ctx, nativeRequest(ctx, call, false));
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json) || !Array.isArray(json.output)) return badUpstreamBody();
  const done = settledAnswer(ctx, call.chat, responsesUsage(json.usage), outputText(json.output), false, LogStatus.Success);
  asOurs(call, json);
  await ctx.finish(done);
  await call.keep(json as unknown as ResponseObject);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

function nativeStream(gw: Gateway, ctx: AttemptContext, call: ResponsesCall): Promise<Finished | Failed> {
  let usage: Usage | undefined;
  let completion = '';
  let final: ResponseObject | undefined;
  return relayNativeStream(gw, ctx, call.chat, nativeRequest(ctx, call, true), {
    step(event) {
      const json = asRecord(tryParse(event.data));
      const type = str(json.type) ?? event.event ?? '';
      if (isRecord(json.response)) asOurs(call, json.response);
      if (type === 'error' || type === 'response.failed') {
        const err = asRecord(type === 'error' ? json : asRecord(json.response).error);
        return { kind: 'error', error: { status: 502, type: 'upstream_error', code: str(err.code) ?? 'upstream_error', message: str(err.message) ?? event.data }, text: formatEvent(type === 'error' ? event.data : json, type) };
      }
      if (type === 'response.output_text.delta' || type === 'response.function_call_arguments.delta') completion += str(json.delta) ?? '';
      if (type !== 'response.completed' && type !== 'response.incomplete') return { kind: 'pass', text: formatEvent(json, type) };
      usage = responsesUsage(asRecord(json.response).usage);
      final = json.response as ResponseObject;
      return { kind: 'close', text: formatEvent(json, type) };
    },
    usage: () => usage,
    completion: () => completion,
    errorEvent: (message) => formatEvent({ type: 'error', code: 'stream_interrupted', message, param: null }, 'error'),
    closeRequired: true,
    beforeClose: () => (final ? call.keep(final) : Promise.resolve()),
  });
}

/** Chat answers of any other upstream, written as a Response object or its event sequence. */
function responsesWriter(ctx: AttemptContext, call: ResponsesCall): ChatWriter {
  const stream = new ResponsesStream(call.meta);
  const write = (sse: SseOut, events: { type: string }[]) => events.reduce((p, e) => p.then(() => sse.write(formatEvent(e, e.type))), Promise.resolve());
  return {
    async json(answer, billed) {
      const response = chatToResponse(answer, call.meta, billed);
      await call.keep(response);
      ctx.reply.header('content-type', 'application/json').send(response);
    },
    chunk: (chunk, sse) => write(sse, stream.chunk(chunk)),
    async end(sse, billed, midError) {
      if (midError) return write(sse, stream.fail(midError));
      const { events, response } = stream.finish(billed);
      await call.keep(response);
      await write(sse, events);
    },
  };
}

export async function createResponse(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = checkResponsesBody(request.body);
  const db = request.server.ctx.db;
  const reserve = gw.snapshot.sys.log.response_reserve;
  // The owner of stored responses: the user of the key (runCall admits again, with every other check).
  const owner = admit(gw.snapshot, request).user.user_id;
  const before = body.previous_response_id ? await conversationBefore(db, body.previous_response_id, owner, reserve) : [];
  const sent = body.input == null ? [] : inputItems(body.input);
  const { chat, unsupported, tools } = responsesToChat(body, [...before, ...sent]);
  const turn = withItemIds(sent);
  if (!chat.messages.some((m) => m.role !== 'system')) throw bad("'input' must hold at least one item.", 'input', 'missing_required_parameter');
  const meta = newResponseMeta(body, body.model, tools);
  const call: ResponsesCall = {
    body,
    before,
    chat,
    meta,
    async keep(response) {
      if (body.store === false) return;
      try {
        await saveResponse(db, owner, { id: meta.id, previousId: body.previous_response_id ?? '', input: turn, response });
      } catch (err) {
        // Charged and answered already: a failed save loses the stored copy, not the call.
        request.log.error({ err }, 'storing a response failed');
      }
    },
  };
  const stream = body.stream === true;
  return runChatCall(gw, request, reply, {
    path: '/v1/responses',
    requested: body.model,
    stream,
    chat,
    native: (ctx) => (!speaksResponses(ctx.route) ? undefined : stream ? nativeStream(gw, ctx, call) : nativeJson(gw, ctx, call)),
    refusal: unsupported.length ? bad(`The model \`${body.model}\` cannot take ${[...new Set(unsupported)].join(', ')}: its upstream does not speak the Responses API.`, 'tools', 'unsupported_parameter') : undefined,
    writer: (ctx) => responsesWriter(ctx, call),
  });
}

/** `/v1/responses/{id}` and `/v1/responses/{id}/input_items`: the path after /responses/. */
function idOf(request: FastifyRequest): { id: string; rest: string } {
  const tail = decodeURIComponent((request.params as { '*': string })['*'] ?? '');
  const [id = '', ...rest] = tail.split('/');
  return { id, rest: rest.join('/') };
}

const notFound = (request: FastifyRequest) => new GatewayError(404, 'unknown_url', `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`);

/** GET /v1/responses/{id} and GET /v1/responses/{id}/input_items (?limit, ?order, ?after). */
export async function readResponse(gw: Gateway, request: FastifyRequest) {
  const owner = admit(gw.snapshot, request).user.user_id;
  const { id, rest } = idOf(request);
  if (rest && rest !== 'input_items') throw notFound(request);
  const stored = await loadResponse(request.server.ctx.db, id, owner, gw.snapshot.sys.log.response_reserve);
  if (!stored) throw responseNotFound(id);
  if (!rest) return stored.response;
  const q = request.query as Record<string, string | undefined>;
  const limit = Math.min(Math.max(Number(q.limit) || 20, 1), 100);
  if (q.order !== undefined && q.order !== 'asc' && q.order !== 'desc') throw bad("'order' must be asc or desc.", 'order');
  // Newest first unless asked otherwise, as OpenAI lists them.
  const items = q.order === 'asc' ? stored.input : [...stored.input].reverse();
  const from = q.after ? items.findIndex((i) => i.id === q.after) + 1 : 0;
  const page = items.slice(from, from + limit);
  return { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: from + limit < items.length };
}

/** DELETE /v1/responses/{id}. */
export async function removeResponse(gw: Gateway, request: FastifyRequest) {
  const owner = admit(gw.snapshot, request).user.user_id;
  const { id, rest } = idOf(request);
  if (rest) throw notFound(request);
  if (!(await deleteResponse(request.server.ctx.db, id, owner))) throw responseNotFound(id);
  return { id, object: 'response', deleted: true };
}
