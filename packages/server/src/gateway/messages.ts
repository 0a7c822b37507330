// POST /v1/messages: Anthropic's Messages API for Anthropic clients (x-api-key or Bearer).
// - The route's family is anthropic: the client's body goes through with the model replaced (native;
//   the model's preset config is not applied, it is written for chat bodies), usage read from the answer
//   or from the events, which are relayed as they come.
// - Any other family: the request becomes an OpenAI chat request for that family's chat adapter
//   (chat.ts's attempts), and the answer is written back as an Anthropic message or event stream.
// Billed like chat: the requested model's price on the usage, gaps counted locally. Errors reach the
// client in Anthropic's shape (messages-errors.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { completionCap } from '../billing/estimate';
import { countChatPrompt } from '../billing/tokens';
import { anthropicToChatRequest, buildMessagesRequest, serverTools, chatResponseToAnthropic, messagesStreamUsage, messagesUsage, toAnthropicUsage } from '../providers/anthropic/messages';
import { chunkToAnthropicEvents, finishAnthropicEvents, newMessagesSseState } from '../providers/anthropic/messages-stream';
import { statusOfErrorType, type AnthropicClientHeaders } from '../providers/anthropic/api';
import type { AnthropicUsage } from '../providers/anthropic/wire';
import { asArray, asRecord, isRecord, str, tryParse } from '../providers/shape';
import type { ChatRequest, Usage } from '../providers/types';
import { runChatCall, settledAnswer, type ChatWriter } from './chat';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { anthropicErrorEvent } from './messages-errors';
import { badUpstreamBody, isFailed, readJson, sendOrFail, SseOut } from './relay';
import { relayNativeStream } from './native-relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { formatEvent } from './sse';

type MessagesBody = Record<string, unknown> & { model: string; messages: unknown[] };

/** What every Messages body needs (count_tokens bodies have no more): a model and role-tagged messages. */
export function checkMessagesBody(body: unknown): MessagesBody {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  if (typeof body.model !== 'string' || !body.model.trim()) throw new GatewayError(400, 'model_required', 'model: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalidRequest('messages: must be a non-empty array', 'invalid_messages');
  if (!body.messages.every((m) => isRecord(m) && typeof m.role === 'string')) throw invalidRequest('messages: each message must be an object with a role', 'invalid_messages');
  return body as MessagesBody;
}

function parseMessagesBody(body: unknown): MessagesBody {
  const b = checkMessagesBody(body);
  if (typeof b.max_tokens !== 'number') throw invalidRequest('max_tokens: Field required (a number)', 'invalid_type');
  if (b.stream !== undefined && typeof b.stream !== 'boolean') throw invalidRequest('stream: must be a boolean', 'invalid_type');
  return b;
}

/** The text of an Anthropic answer's blocks (text, thinking, tool input), for the log and local counting. */
function blocksText(content: unknown): string {
  return asArray(content)
    .map((b) => {
      const block = asRecord(b);
      return str(block.text) ?? str(block.thinking) ?? (block.type === 'tool_use' ? JSON.stringify(block.input ?? {}) : '');
    })
    .join('');
}

/** The client's body with the completion limit its reservation pays for (run.ts `hold` may have lowered it on `chat`). */
const withCap = (body: MessagesBody, chat: ChatRequest): MessagesBody => ({ ...body, max_tokens: completionCap(chat) ?? body.max_tokens });

async function nativeJson(gw: Gateway, ctx: AttemptContext, body: MessagesBody, chat: ChatRequest, client: AnthropicClientHeaders): Promise<Finished | Failed> {
  const res = await sendOrFail(gw, ctx, buildMessagesRequest(ctx.route.target, { ...withCap(body, chat), stream: false }, client));
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json) || !Array.isArray(json.content)) return badUpstreamBody();
  const done = settledAnswer(ctx, chat, messagesUsage(json), blocksText(json.content), false, LogStatus.Success);
  json.model = ctx.plan.requested;
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

function nativeStream(gw: Gateway, ctx: AttemptContext, body: MessagesBody, chat: ChatRequest, client: AnthropicClientHeaders): Promise<Finished | Failed> {
  const counted: AnthropicUsage = {};
  let usage: Usage | undefined;
  let completion = '';
  return relayNativeStream(gw, ctx, chat, buildMessagesRequest(ctx.route.target, { ...withCap(body, chat), stream: true }, client), {
    step(event) {
      const json = asRecord(tryParse(event.data));
      if (json.type === 'error' || event.event === 'error') {
        const err = asRecord(json.error);
        return { kind: 'error', error: { status: statusOfErrorType(str(err.type)), type: str(err.type) ?? 'api_error', code: null, message: str(err.message) ?? event.data }, text: formatEvent(event.data, 'error') };
      }
      usage = messagesStreamUsage(event, counted) ?? usage;
      let data: unknown = event.data;
      if (json.type === 'message_start' && isRecord(json.message)) {
        json.message.model = ctx.plan.requested;
        data = json;
      }
      if (json.type === 'content_block_delta') {
        const d = asRecord(json.delta);
        completion += str(d.text) ?? str(d.partial_json) ?? str(d.thinking) ?? '';
      }
      // message_stop closes the answer: it goes out once the call is charged.
      return { kind: json.type === 'message_stop' ? 'close' : 'pass', text: formatEvent(data, event.event) };
    },
    usage: () => usage,
    completion: () => completion,
    errorEvent: (message) => anthropicErrorEvent(502, message),
  });
}

/**
 * The input tokens message_start announces: the upstream's when its first chunk already tells (Gemini
 * sends usage with every chunk), else the gateway's own count of the prompt. LangChain's ChatAnthropic
 * takes input_tokens from message_start only; message_delta carries the exact billed usage after.
 */
function startInputTokens(ctx: AttemptContext, chat: ChatRequest, known: Usage | undefined): number {
  if (known?.prompt_tokens) return toAnthropicUsage(known).input_tokens;
  return countChatPrompt(chat.messages, ctx.route.target.model, chat.tools);
}

/** Chat answers of another family, written as Anthropic's message and events. */
function anthropicWriter(ctx: AttemptContext, chat: ChatRequest): ChatWriter {
  const state = newMessagesSseState(ctx.plan.requested);
  const write = (sse: SseOut, events: ReturnType<typeof finishAnthropicEvents>) => events.reduce((p, e) => p.then(() => sse.write(formatEvent(e.data, e.event))), Promise.resolve());
  return {
    json(answer, billed) {
      const message = chatResponseToAnthropic(answer, ctx.plan.requested);
      message.usage = toAnthropicUsage(billed);
      ctx.reply.header('content-type', 'application/json').send(message);
    },
    chunk(chunk, sse, known) {
      if (!state.started) state.inputTokens = startInputTokens(ctx, chat, known);
      return write(sse, chunkToAnthropicEvents(chunk, state, known));
    },
    async end(sse, billed, midError) {
      if (midError) return sse.write(anthropicErrorEvent(502, midError));
      // message_delta carries the usage as billed (the upstream's, gaps counted locally).
      state.usage = billed;
      await write(sse, finishAnthropicEvents(state));
    },
  };
}

/** Node joins a repeated header with ", "; its type still allows an array, joined the same way. */
function oneHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The client's `anthropic-version` and `anthropic-beta`, for an Anthropic upstream (count_tokens too). */
export function anthropicClientHeaders(request: FastifyRequest): AnthropicClientHeaders {
  return { version: oneHeader(request.headers['anthropic-version'])?.trim(), beta: oneHeader(request.headers['anthropic-beta']) };
}

export function anthropicMessages(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseMessagesBody(request.body);
  const chat = anthropicToChatRequest(body);
  const stream = body.stream === true;
  const client = anthropicClientHeaders(request);
  const hosted = serverTools(body);
  return runChatCall(gw, request, reply, {
    path: '/v1/messages',
    requested: body.model,
    stream,
    chat,
    messages: body.messages,
    native: (ctx) => (ctx.route.family !== 'anthropic' ? undefined : stream ? nativeStream(gw, ctx, body, chat, client) : nativeJson(gw, ctx, body, chat, client)),
    refusal: hosted.length ? invalidRequest(`The model \`${body.model}\` cannot run Anthropic's server tools (${hosted.join(', ')}): its upstream is not Anthropic.`, 'unsupported_parameter') : undefined,
    writer: (ctx) => anthropicWriter(ctx, chat),
  });
}
