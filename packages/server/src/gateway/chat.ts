// POST /v1/chat/completions: the OpenAI chat endpoint, JSON and SSE, over any provider family.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { clampCompletion, estimateChat, outputBounds, type Budget } from '../billing/estimate';
import { outputLimitOf } from './models';
import { chatExtras } from '../billing/media';
import { billingRuleOf, priceChat, type BillableUsage } from '../billing/price';
import { countChatPrompt, countCompletion, mergeUsage, needsLocalCount } from '../billing/tokens';
import { chatAdapterOf } from '../providers/index';
import { toChatUsage } from '../providers/usage';
import type { ChatChunk, ChatRequest, ChatResponse, StreamStep, Usage } from '../providers/types';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { applyPreset } from './resolve';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall, type CallSpec } from './run';
import type { Resolution } from './resolve';
import { formatEvent, readEvents } from './sse';
import { badUpstreamBody, brokenStream, emptyStream, isFailed, readJson, sendOrFail, SseOut, withoutKey } from './relay';

/** The shape checks a chat body needs before anything else reads it. */
function parseChatBody(body: unknown): ChatRequest {
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

const lastUserText = (req: ChatRequest) => {
  const c = [...req.messages].reverse().find((m) => m.role === 'user')?.content;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => ('text' in p ? p.text : '')).join(' ') : '';
};

/** Prices a finished answer: the requested model's price (docs/ORIGINAL-GATEWAY.md §1.3), the usage merged by the billing rule. */
function settleChat(ctx: AttemptContext, body: ChatRequest, upstream: Usage | undefined, completion: string, aborted: boolean) {
  const { model, discountBp } = ctx.plan.resolution;
  const rule = billingRuleOf(model.quotas);
  const local = needsLocalCount(upstream, rule, aborted)
    ? { prompt: countChatPrompt(body.messages, ctx.route.target.model, body.tools), completion: countCompletion(completion, ctx.route.target.model) }
    : { prompt: 0, completion: 0 };
  // Never past the completion limit the upstream was sent: the reservation covered no more.
  const usage: BillableUsage = clampCompletion(mergeUsage(upstream, local, rule, aborted), body);
  const price = priceChat({ quotas: model.quotas, type: model.type, usage, discountBp, extras: chatExtras(body) });
  return { usage, price };
}

/** The body an attempt sends: a copy (retries and fallbacks start from the client's), with the route's model and the preset. */
function upstreamBody(ctx: AttemptContext, body: ChatRequest, stream: boolean): ChatRequest {
  return applyPreset(ctx.target, { ...body, model: ctx.route.target.model, stream });
}

/** How an answer reaches the client: OpenAI chat here; /v1/messages, /v1/responses and the Gemini-native
 *  ingress write it in their own protocol. */
export interface ChatWriter {
  /** A whole (non-stream) answer with the usage billed for it. */
  json(answer: ChatResponse, billed: Usage): void | Promise<void>;
  /** One stream chunk, its model already rewritten; `usage` is what the upstream reported so far. */
  chunk(chunk: ChatChunk, sse: SseOut, usage: Usage | undefined): Promise<void>;
  /** The stream's end: `midError` when the upstream broke after the first chunk. */
  end(sse: SseOut, billed: Usage, midError: string | undefined): Promise<void>;
}

function finishedChat(usage: BillableUsage, price: ReturnType<typeof settleChat>['price'], completion: string, status: number = LogStatus.Success): Finished {
  return {
    kind: 'finished',
    status,
    usage,
    quota: price.quota,
    lineItems: price.detail.items,
    promptRatio: price.prompt_ratio,
    completionRatio: price.completion_ratio,
    completion,
    tokens: usage.total_tokens,
  };
}

/** settleChat's price as an attempt's outcome: how every chat-shaped ingress (native relays too) ends. */
export function settledAnswer(ctx: AttemptContext, body: ChatRequest, upstream: Usage | undefined, completion: string, aborted: boolean, status: number): Finished {
  const { usage, price } = settleChat(ctx, body, upstream, completion, aborted);
  return finishedChat(usage, price, completion, status);
}

/** An answer's text as billed and logged: each choice's content and tool-call arguments, choices a line apart. */
export function completionOf(answer: ChatResponse): string {
  let text = '';
  for (let i = 0; i < answer.choices.length; i++) {
    const { message } = answer.choices[i]!;
    if (i > 0) text += '\n';
    text += message.content ?? '';
    // join('') read a missing argument string as ''.
    for (const t of message.tool_calls ?? []) text += t.function.arguments ?? '';
  }
  return text;
}

async function chatJsonAttempt(gw: Gateway, ctx: AttemptContext, body: ChatRequest, writer: ChatWriter): Promise<Finished | Failed> {
  const adapter = chatAdapterOf(ctx.route);
  const res = await sendOrFail(gw, ctx, adapter.buildRequest(ctx.route.target, upstreamBody(ctx, body, false)));
  if (isFailed(res)) return res;
  let parsed;
  try {
    parsed = adapter.parseResponse(await readJson(res));
  } catch {
    return badUpstreamBody();
  }
  const answer = parsed.body;
  const completion = completionOf(answer);
  const { usage, price } = settleChat(ctx, body, parsed.usage, completion, false);
  // The client sees the model it asked for, whatever forwarding or replacement did (docs/ORIGINAL-GATEWAY.md §1.4).
  answer.model = ctx.plan.requested;
  // The usage as billed, with its details (cache reads and writes, reasoning, audio).
  answer.usage = toChatUsage(usage, answer.usage);
  const done = finishedChat(usage, price, completion);
  await ctx.finish(done);
  await writer.json(answer, usage);
  return done;
}

async function chatStreamAttempt(gw: Gateway, ctx: AttemptContext, body: ChatRequest, writer: ChatWriter): Promise<Finished | Failed> {
  const adapter = chatAdapterOf(ctx.route);
  const res = await sendOrFail(gw, ctx, adapter.buildRequest(ctx.route.target, upstreamBody(ctx, body, true)));
  if (isFailed(res)) return res;

  const sse = new SseOut(ctx);
  const state = adapter.newStreamState();
  let usage: Usage | undefined;
  let completion = '';
  let midError: string | undefined;
  try {
    for await (const event of readEvents(res.body)) {
      const step: StreamStep = adapter.parseStreamEvent(event, state);
      if (step.usage) usage = { ...usage, ...step.usage };
      if (step.error) {
        const error = { ...step.error, message: withoutKey(ctx.route.key, step.error.message) };
        if (!sse.started) return { kind: 'failed', error };
        midError = error.message;
        break;
      }
      for (const chunk of step.chunks) {
        sse.start();
        chunk.model = ctx.plan.requested;
        for (const c of chunk.choices) completion += (c.delta.content ?? '') + (c.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '').join('');
        await writer.chunk(chunk, sse, usage);
      }
      if (step.done) break;
    }
  } catch (err) {
    if (ctx.signal.aborted) {
      // The client left: bill what it was sent (docs/ORIGINAL-GATEWAY.md §1.11), counted locally.
      const { usage: billed, price } = settleChat(ctx, body, undefined, completion, true);
      sse.end();
      return { ...finishedChat(billed, price, completion, LogStatus.Aborted), errMsg: 'client closed the connection' };
    }
    if (!sse.started) return brokenStream(err);
    midError = `The upstream stream broke: ${(err as Error).message}`;
  }
  // An upstream that ended without a single chunk: treat as a failure the next key may fix.
  if (!sse.started) return emptyStream();
  const aborted = midError !== undefined;
  const { usage: billed, price } = settleChat(ctx, body, aborted ? undefined : usage, completion, aborted);
  const done = { ...finishedChat(billed, price, completion, midError ? LogStatus.Failed : LogStatus.Success), errMsg: midError };
  await ctx.finish(done);
  await writer.end(sse, billed, midError);
  sse.end();
  return done;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * The fields OpenAI's schema requires (nullable) that converted answers (Anthropic, Gemini) and some
 * compatible hosts leave out: `logprobs` on every choice, `message.refusal`. Filled here, where every
 * family's answer leaves as OpenAI chat; an upstream's own values stay. OpenAI-family bodies are relayed
 * unchecked, hence the guards.
 */
export function withOpenAiNulls(answer: ChatResponse): ChatResponse {
  for (const c of answer.choices) {
    if (!isObject(c)) continue;
    c.logprobs ??= null;
    if (isObject(c.message)) c.message.refusal ??= null;
  }
  return answer;
}

/** The streamed half: `logprobs` on each choice of a chunk (OpenAI sends it, null, on every one). */
export function chunkWithOpenAiNulls(chunk: ChatChunk): ChatChunk {
  for (const c of chunk.choices) if (isObject(c)) c.logprobs ??= null;
  return chunk;
}

/**
 * The OpenAI chat answer: usage chunks only when the client asked for them (stream_options). A class, not an
 * object literal of closures: every call in flight held those closures and their context (docs/BENCHMARKS.md,
 * twenty-ninth session).
 */
class OpenAiWriter implements ChatWriter {
  private readonly wantsUsage: boolean;

  constructor(
    private readonly ctx: AttemptContext,
    body: ChatRequest,
  ) {
    this.wantsUsage = body.stream_options?.include_usage === true;
  }

  json(answer: ChatResponse): void {
    void this.ctx.reply.header('content-type', 'application/json').send(withOpenAiNulls(answer));
  }

  async chunk(chunk: ChatChunk, sse: SseOut, usage: Usage | undefined): Promise<void> {
    if (chunk.usage && chunk.choices.length === 0 && !this.wantsUsage) return;
    if (chunk.usage && !this.wantsUsage) delete chunk.usage;
    else if (chunk.usage && usage) chunk.usage = toChatUsage(usage, chunk.usage);
    await sse.write(formatEvent(chunkWithOpenAiNulls(chunk)));
  }

  async end(sse: SseOut, billed: Usage, midError: string | undefined): Promise<void> {
    if (midError) await sse.write(formatEvent({ error: { message: midError, type: 'upstream_error', code: 'stream_interrupted' } }));
    const usage = toChatUsage(billed);
    if (this.wantsUsage && midError) await sse.write(formatEvent({ id: `chatcmpl-${this.ctx.plan.traceId}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: this.ctx.plan.requested, choices: [], usage }));
    await sse.write(formatEvent('[DONE]'));
  }
}

/**
 * How one chat-shaped ingress (chat, /v1/messages, /v1/responses, /v1beta) serves a call: the log's
 * path, the chat request it maps to, the attempt of a route whose upstream speaks its own protocol, and
 * how a converted answer is written back in it.
 */
export interface ChatIngress {
  path: string;
  requested: string;
  stream: boolean;
  chat: ChatRequest;
  /** The client's messages as the call log keeps them (default: the chat request's). */
  messages?: unknown;
  /** The native attempt, when the route's upstream speaks the ingress's own protocol; else undefined. */
  native?(ctx: AttemptContext): Promise<Finished | Failed> | undefined;
  /** What a converted route cannot carry (hosted or server tools…): refused before any upstream call. */
  refusal?: GatewayError;
  writer(ctx: AttemptContext): ChatWriter;
}

/**
 * A chat-shaped call's spec for runCall: estimated, native or converted, billed and logged like chat. An object
 * of a class, not an object literal of closures over the ingress: every call in flight held those
 * (docs/BENCHMARKS.md, thirtieth session).
 */
class ChatCall implements CallSpec {
  readonly endpoint = 'chat';
  readonly path: string;
  readonly requested: string;
  readonly stream: boolean;
  readonly chat: ChatRequest;
  readonly messages: unknown;
  readonly prompt: string;

  constructor(
    private readonly gw: Gateway,
    private readonly ingress: ChatIngress,
  ) {
    this.path = ingress.path;
    this.requested = ingress.requested;
    this.stream = ingress.stream;
    this.chat = ingress.chat;
    this.messages = ingress.messages ?? ingress.chat.messages;
    this.prompt = lastUserText(ingress.chat);
  }

  estimate(r: Resolution): Budget {
    return estimateChat({ quotas: r.model.quotas, type: r.model.type, request: this.chat, discountBp: r.discountBp, ...outputBounds(outputLimitOf(r.model)) });
  }

  attempt(ctx: AttemptContext): Promise<Finished | Failed> {
    const { ingress } = this;
    const native = ingress.native?.(ctx);
    if (native) return native;
    if (ingress.refusal) throw ingress.refusal;
    const writer = ingress.writer(ctx);
    return this.stream ? chatStreamAttempt(this.gw, ctx, this.chat, writer) : chatJsonAttempt(this.gw, ctx, this.chat, writer);
  }
}

/** runCall for a chat-shaped ingress. */
export function runChatCall(gw: Gateway, request: FastifyRequest, reply: FastifyReply, ingress: ChatIngress) {
  return runCall(gw, request, reply, new ChatCall(gw, ingress));
}

/** POST /v1/chat/completions as a chat-shaped ingress: its writer is OpenAI's own (a class, as ChatCall). */
class OpenAiIngress implements ChatIngress {
  readonly path = '/v1/chat/completions';
  readonly requested: string;
  readonly stream: boolean;

  constructor(readonly chat: ChatRequest) {
    this.requested = chat.model;
    this.stream = chat.stream === true;
  }

  writer(ctx: AttemptContext): ChatWriter {
    return new OpenAiWriter(ctx, this.chat);
  }
}

/** Not `async`: a promise of its own around runCall's cost one more a call. A bad body throws, and Fastify answers it the same. */
export function chatCompletions(gw: Gateway, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return runChatCall(gw, request, reply, new OpenAiIngress(parseChatBody(request.body)));
}
