// POST /v1/images/generations, /v1/images/edits and /v1/audio/speech through the OpenAI family's passthrough.
// Images (generated or edited alike): image_quota — the per-image row for size and quality × the images
// returned, or, for a token-billed model whose upstream reports usage (gpt-image-1), its token prices
// (for edits the input images' tokens too, as the upstream reports them). Edits are a multipart upload
// forwarded byte for byte with only the model swapped (multipart.ts).
// Speech: audio_quota per input character (exact before the call, so the reservation is the price);
// the audio is relayed as it arrives, with the upstream's content-type.
import { finished } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { estimateImage, estimateSpeech } from '../billing/estimate';
import { countCharacters } from '../billing/media';
import { priceImage, priceSpeech, type ImageUsage } from '../billing/price';
import { asRecord, isRecord, num } from '../providers/shape';
import { invalidParam, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { fileParts, readForm, replaceValue, textField, type Form } from './multipart';
import { expectTypes, parseJsonBody, sendPassthrough } from './passthrough';
import { badUpstreamBody, isFailed, readJson } from './relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall } from './run';

type Body = Record<string, unknown> & { model: string };

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** gpt-image-1's usage → the image price's token split; undefined for per-image models (DALL·E). */
function imageUsage(u: unknown): ImageUsage | undefined {
  if (!isRecord(u)) return undefined;
  const details = asRecord(u.input_tokens_details);
  const output = num(u.output_tokens);
  if (!output && !num(u.input_tokens)) return undefined;
  const image = num(details.image_tokens);
  return { text_tokens: num(details.text_tokens) || num(u.input_tokens) - image, image_tokens: image, output_tokens: output, cached_tokens: num(details.cached_tokens) };
}

/** What an image call sends: the JSON of a generation, or an edit's form with the model swapped per attempt. */
type ImageCall = { endpoint: 'images/generations'; body: Body } | { endpoint: 'images/edits'; form: Form };

/** The fields that price an image call: how many, what size and quality. */
interface ImageAsk {
  n?: number;
  size?: string;
  quality?: string;
  prompt: string;
}

async function imageAttempt(gw: Gateway, ctx: AttemptContext, call: ImageCall, ask: ImageAsk): Promise<Finished | Failed> {
  const payload = call.endpoint === 'images/edits' ? { raw: replaceValue(call.form.body, call.form.model, ctx.route.target.model), contentType: call.form.contentType } : { json: call.body };
  const res = await sendPassthrough(gw, ctx, call.endpoint, payload);
  if (isFailed(res)) return res;
  const json = await readJson(res);
  if (!isRecord(json) || !Array.isArray(json.data)) return badUpstreamBody();
  const { model, discountBp } = ctx.plan.resolution;
  // Charged for the images produced (an upstream may return fewer than asked), never more than asked.
  const n = Math.min(json.data.length || 1, Math.max(1, ask.n ?? 1));
  const usage = imageUsage(json.usage);
  const price = priceImage({ quotas: model.quotas, n, size: ask.size, quality: ask.quality, discountBp, usage });
  if ('model' in json) json.model = ctx.plan.requested;
  const done: Finished = {
    kind: 'finished',
    status: LogStatus.Success,
    usage: usage ? { prompt_tokens: usage.text_tokens + usage.image_tokens, completion_tokens: usage.output_tokens } : undefined,
    quota: price.quota,
    completion: `${n} image(s)`,
    tokens: 0,
  };
  await ctx.finish(done);
  ctx.reply.header('content-type', 'application/json').send(json);
  return done;
}

// Refused before any upstream call: the attempt reads one JSON answer (images counted, usage priced), so
// an SSE answer would be an unreadable body, a 502 and a retry that generates the image again.
const noImageStream = () => invalidParam('stream', "Streaming image generation is not supported: leave out 'stream' (or set it to false).", 'unsupported_parameter');

function runImages(gw: Gateway, request: FastifyRequest, reply: FastifyReply, requested: string, call: ImageCall, ask: ImageAsk) {
  return runCall(gw, request, reply, {
    endpoint: 'images',
    path: `/v1/${call.endpoint}`,
    requested,
    stream: false,
    prompt: ask.prompt,
    estimate: (r) => estimateImage({ quotas: r.model.quotas, discountBp: r.discountBp, ...ask }).quota,
    attempt: (ctx) => imageAttempt(gw, ctx, call, ask),
  });
}

export function imageGenerations(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseJsonBody(request.body);
  if (typeof body.prompt !== 'string' || !body.prompt) throw invalidParam('prompt', "'prompt' must be a non-empty string.", 'invalid_type');
  expectTypes(body, { n: 'number', size: 'string', quality: 'string', response_format: 'string', style: 'string', stream: 'boolean' });
  if (body.stream === true) throw noImageStream();
  const ask = { n: num(body.n) || undefined, size: text(body.size), quality: text(body.quality), prompt: body.prompt };
  return runImages(gw, request, reply, body.model, { endpoint: 'images/generations', body }, ask);
}

/** An edit's form: at least one image, a prompt, `n` a whole number; any other field passes through. */
export function imageEdits(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const form = readForm(request, 'images');
  if (fileParts(form, 'image').length === 0) throw invalidParam('image', "'image' must be one or more non-empty image files.", 'invalid_file');
  const prompt = textField(form, 'prompt')?.trim();
  if (!prompt) throw invalidParam('prompt', "'prompt' must be a non-empty string.", 'invalid_type');
  const n = textField(form, 'n')?.trim();
  if (n !== undefined && !/^\d{1,6}$/.test(n)) throw invalidParam('n', "'n' must be a whole number.", 'invalid_type');
  if (textField(form, 'stream')?.trim().toLowerCase() === 'true') throw noImageStream();
  const ask = { n: Number(n) || undefined, size: textField(form, 'size')?.trim(), quality: textField(form, 'quality')?.trim(), prompt };
  return runImages(gw, request, reply, form.requested, { endpoint: 'images/edits', form }, ask);
}

async function speechAttempt(gw: Gateway, ctx: AttemptContext, body: Body & { input: string }): Promise<Finished | Failed> {
  const res = await sendPassthrough(gw, ctx, 'audio/speech', { json: body });
  if (isFailed(res)) return res;
  const { model, discountBp } = ctx.plan.resolution;
  const characters = countCharacters(body.input);
  const price = priceSpeech({ quotas: model.quotas, characters, discountBp });
  const type = res.headers['content-type'];
  ctx.reply.header('content-type', (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream').send(res.body.stream());
  let errMsg: string | undefined;
  try {
    // The log's timings cover the whole relay; the price does not depend on it (the upstream billed
    // the characters as soon as it started producing audio).
    await finished(ctx.reply.raw);
  } catch (err) {
    errMsg = `the audio relay ended early: ${(err as Error).message}`;
  }
  return { kind: 'finished', status: errMsg ? LogStatus.Aborted : LogStatus.Success, quota: price.quota, errMsg, tokens: 0 };
}

export function speech(gw: Gateway, request: FastifyRequest, reply: FastifyReply) {
  const body = parseJsonBody(request.body);
  if (typeof body.input !== 'string' || !body.input) throw invalidRequest("'input' must be a non-empty string.", 'invalid_type');
  expectTypes(body, { response_format: 'string', speed: 'number', instructions: 'string' });
  const input = body.input;
  return runCall(gw, request, reply, {
    endpoint: 'speech',
    path: '/v1/audio/speech',
    requested: body.model,
    stream: false,
    prompt: input,
    estimate: (r) => estimateSpeech({ quotas: r.model.quotas, input, discountBp: r.discountBp }).quota,
    attempt: (ctx) => speechAttempt(gw, ctx, { ...body, input }),
  });
}
