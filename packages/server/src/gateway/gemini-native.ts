// POST /v1beta/models/{model}:generateContent and :streamGenerateContent: Google's Gemini API for Gemini
// clients (Gemini CLI, @google/genai), the key as x-goog-api-key or ?key=.
// - The route's family is gemini: the client's body goes upstream as is (the model is in the URL, so
//   only the URL names the upstream's model; the preset config is not applied, it is written for chat
//   bodies), usage read from usageMetadata, the events relayed as they come with modelVersion rewritten.
// - Any other family: the request becomes an OpenAI chat request for that family's chat adapter
//   (chat.ts's attempts), and the answer is written back as GenerateContentResponse(s).
// - Without `alt=sse`, Google streams one JSON array of responses. The gateway answers that form with a
//   whole answer in a one-element array (upstream called without streaming); SSE streams for real.
// Billed like chat: the requested model's price on the usage, gaps counted locally. Errors reach the
// client in Google's shape (gemini-native-errors.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { completionCap } from '../billing/estimate';
import { geminiHeaders, geminiUrl, mapGeminiError } from '../providers/gemini/api';
import { geminiUsage } from '../providers/gemini/chat';
import { chatResponseToGemini, geminiAnswerText, geminiToChatRequest, hostedTools, wantsThoughts } from '../providers/gemini/ingress';
import { chunkToGeminiEvents, finishGeminiEvent, newGeminiSseState } from '../providers/gemini/ingress-stream';
import { asArray, asRecord, isRecord, tryParse, type Json } from '../providers/shape';
import type { ChatRequest, Usage } from '../providers/types';
import { runChatCall, settledAnswer, type ChatWriter } from './chat';
import { invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { googleErrorEvent } from './gemini-native-errors';
import { badUpstreamBody, isFailed, readJson, sendOrFail, SseOut } from './relay';
import { relayNativeStream } from './native-relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { formatEvent } from './sse';

/** How the answer goes out: one JSON response, SSE events, or (stream without alt=sse) a JSON array. */
export type GeminiAnswerForm = 'json' | 'sse' | 'array';

const ROLES = new Set(['user', 'model', 'function']);
const NUMBERS = ['maxOutputTokens', 'temperature', 'topP', 'topK', 'candidateCount', 'presencePenalty', 'frequencyPenalty', 'seed'];

/** The shape a GenerateContentRequest needs before anything reads it; messages name the field like Google's. */
export function checkGeminiBody(body: unknown): Json {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  if (!Array.isArray(body.contents) || body.contents.length === 0) throw invalidRequest('contents: must be a non-empty array of Content objects.', 'invalid_contents');
  body.contents.forEach((c, i) => {
    if (!isRecord(c)) throw invalidRequest(`contents[${i}]: must be a Content object.`, 'invalid_contents');
    if (c.role !== undefined && !(typeof c.role === 'string' && ROLES.has(c.role))) throw invalidRequest(`contents[${i}].role: must be "user" or "model".`, 'invalid_contents');
    if (!Array.isArray(c.parts) || c.parts.length === 0 || !c.parts.every(isRecord)) throw invalidRequest(`contents[${i}].parts: must be a non-empty array of Part objects.`, 'invalid_contents');
  });
  const config = body.generationConfig;
  if (config !== undefined && !isRecord(config)) throw invalidRequest('generationConfig: must be an object.', 'invalid_type');
  for (const f of NUMBERS) {
    const v = asRecord(config)[f];
    if (v !== undefined && v !== null && typeof v !== 'number') throw invalidRequest(`generationConfig.${f}: must be a number.`, 'invalid_type');
  }
  const stops = asRecord(config).stopSequences;
  if (stops !== undefined && !(Array.isArray(stops) && stops.every((s) => typeof s === 'string'))) throw invalidRequest('generationConfig.stopSequences: must be an array of strings.', 'invalid_type');
  const wrong = (field: string, ok: (v: unknown) => boolean) => body[field] !== undefined && !ok(body[field]);
  if (wrong('tools', (v) => Array.isArray(v) && v.every(isRecord))) throw invalidRequest('tools: must be an array of Tool objects.', 'invalid_type');
  if (wrong('toolConfig', isRecord)) throw invalidRequest('toolConfig: must be a ToolConfig object.', 'invalid_type');
  if (wrong('safetySettings', Array.isArray)) throw invalidRequest('safetySettings: must be an array.', 'invalid_type');
  if (wrong('systemInstruction', (v) => typeof v === 'string' || isRecord(v))) throw invalidRequest('systemInstruction: must be a Content object.', 'invalid_type');
  return body;
}

const isAnswer = (json: unknown): json is Json => isRecord(json) && (json.candidates !== undefined || json.promptFeedback !== undefined);

/** The client's body with the completion limit its reservation pays for (run.ts `hold` may have lowered it on `chat`). */
function withCap(body: Json, chat: ChatRequest): Json {
  const cap = completionCap(chat);
  return cap === undefined ? body : { ...body, generationConfig: { ...asRecord(body.generationConfig), maxOutputTokens: cap } };
}

const nativeRequest = (ctx: AttemptContext, body: Json, chat: ChatRequest, stream: boolean) => ({ url: geminiUrl(ctx.route.target, stream), headers: geminiHeaders(ctx.route.target.key), body: JSON.stringify(withCap(body, chat)) });

async function nativeJson(gw: Gateway, ctx: AttemptContext, body: Json, chat: ChatRequest, form: GeminiAnswerForm): Promise<Finished | Failed> {
  const res = await sendOrFail(gw, ctx, nativeRequest(ctx, body, chat, false));
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isAnswer(json)) return badUpstreamBody();
  const done = settledAnswer(ctx, chat, geminiUsage(json.usageMetadata), geminiAnswerText(json), false, LogStatus.Success);
  json.modelVersion = ctx.plan.requested;
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(form === 'array' ? [json] : json);
  return done;
}

/** An event that ends a candidate: held back until the call is charged, as the answer's last bytes. */
const isLast = (json: Json) => asArray(json.candidates).some((c) => asRecord(c).finishReason !== undefined);

function nativeStream(gw: Gateway, ctx: AttemptContext, body: Json, chat: ChatRequest): Promise<Finished | Failed> {
  let usage: Usage | undefined;
  let completion = '';
  return relayNativeStream(gw, ctx, chat, nativeRequest(ctx, body, chat, true), {
    step(event) {
      const json = tryParse(event.data);
      if (!isRecord(json)) return undefined;
      if (isRecord(json.error)) return { kind: 'error', error: mapGeminiError(typeof json.error.code === 'number' ? json.error.code : 500, event.data), text: formatEvent(json) };
      usage = geminiUsage(json.usageMetadata) ?? usage;
      completion += geminiAnswerText(json);
      json.modelVersion = ctx.plan.requested;
      return { kind: isLast(json) ? 'close' : 'pass', text: formatEvent(json) };
    },
    usage: () => usage,
    completion: () => completion,
    errorEvent: (message) => googleErrorEvent(502, message),
  });
}

/** Chat answers of another family, written as Gemini's response and events. */
function geminiWriter(ctx: AttemptContext, thoughts: boolean, form: GeminiAnswerForm): ChatWriter {
  const model = ctx.plan.requested;
  const state = newGeminiSseState(model, thoughts);
  return {
    json(answer, billed) {
      const out = chatResponseToGemini(answer, billed, model, thoughts);
      ctx.reply.header('content-type', 'application/json').send(form === 'array' ? [out] : out);
    },
    async chunk(chunk, sse) {
      for (const e of chunkToGeminiEvents(chunk, state)) await sse.write(formatEvent(e));
    },
    async end(sse: SseOut, billed, midError) {
      await sse.write(midError ? googleErrorEvent(502, midError) : formatEvent(finishGeminiEvent(state, billed)));
    },
  };
}

export function geminiGenerate(gw: Gateway, request: FastifyRequest, reply: FastifyReply, model: string, form: GeminiAnswerForm) {
  const body = checkGeminiBody(request.body);
  const chat = geminiToChatRequest(model, body);
  const thoughts = wantsThoughts(body);
  const hosted = hostedTools(body.tools);
  const stream = form === 'sse';
  return runChatCall(gw, request, reply, {
    // The path as Google spells it, never the query (which may hold the key).
    path: `/v1beta/models/${model}:${form === 'json' ? 'generateContent' : 'streamGenerateContent'}`,
    requested: model,
    stream,
    chat,
    native: (ctx) => (ctx.route.family !== 'gemini' ? undefined : stream ? nativeStream(gw, ctx, body, chat) : nativeJson(gw, ctx, body, chat, form)),
    refusal: hosted.length ? invalidRequest(`The model \`${model}\` cannot run Gemini's built-in tools (${hosted.join(', ')}): its upstream is not Gemini.`, 'unsupported_parameter') : undefined,
    writer: (ctx) => geminiWriter(ctx, thoughts, form),
  });
}
