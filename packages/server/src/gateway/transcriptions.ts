// POST /v1/audio/transcriptions and /v1/audio/translations (speech → English text): a multipart upload,
// routed by its `model` field and forwarded byte for byte (same boundary) with only the model's value
// swapped for the upstream's. Both are the same call to the gateway; only the upstream path differs.
//
// Priced per second of audio (audio_quota). The seconds are, first found wins:
//   1. what the upstream says: `duration` (response_format=verbose_json) or `usage.seconds`
//      (usage of type "duration", newer OpenAI answers);
//   2. a WAV file's own header (data bytes / byte rate): exact;
//   3. an estimate from the file size at 128 kbit/s (16 000 bytes per second, the usual MP3/M4A rate):
//      a lower-bitrate file is undercharged, a higher-bitrate one overcharged. Ask for verbose_json for
//      exact billing of compressed formats.
// The reservation uses maxAudioSeconds (an upper bound for any speech codec), so it always covers 2 and 3.
import { finished } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { estimateTranscription, maxAudioSeconds } from '../billing/estimate';
import { priceTranscription } from '../billing/price';
import { asRecord, isRecord, num, str, tryParse } from '../providers/shape';
import { invalidParam } from './errors';
import type { Gateway } from './gateway';
import { readForm, replaceValue, textField, type Form } from './multipart';
import { sendPassthrough } from './passthrough';
import { isFailed } from './relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { runCall } from './run';

const BYTES_PER_SECOND_GUESS = 16_000;

/** Duration of a RIFF/WAVE file from its `fmt ` and `data` chunks; undefined for anything else. */
function wavSeconds(file: Buffer): number | undefined {
  if (file.length < 44 || file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('latin1', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= file.length) byteRate = file.readUInt32LE(at + 16);
    if (id === 'data') {
      if (!byteRate) return undefined;
      // Streamed WAVs leave the size at 0 or 0xFFFFFFFF: take what is there.
      const bytes = size === 0 || size === 0xffffffff ? file.length - at - 8 : Math.min(size, file.length - at - 8);
      return bytes / byteRate;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** The seconds the upstream reported, when it did. */
function answeredSeconds(json: unknown): number | undefined {
  const j = asRecord(json);
  const usage = asRecord(j.usage);
  const seconds = num(j.duration) || (usage.type === 'duration' ? num(usage.seconds) : 0);
  return seconds > 0 ? seconds : undefined;
}

interface Upload {
  form: Form;
  file: Buffer;
}

function readUpload(request: FastifyRequest): Upload & { prompt: string } {
  const form = readForm(request, 'audio');
  const part = form.parts.find((p) => p.name === 'file');
  if (!part || part.end <= part.start) throw invalidParam('file', "'file' must be a non-empty audio file.", 'invalid_file');
  const prompt = textField(form, 'prompt') ?? '';
  return { form, file: form.body.subarray(part.start, part.end), prompt: prompt || `[audio ${part.filename ?? 'file'}, ${part.end - part.start} bytes]` };
}

type AudioEndpoint = 'audio/transcriptions' | 'audio/translations';

async function attempt(gw: Gateway, ctx: AttemptContext, endpoint: AudioEndpoint, upload: Upload): Promise<Finished | Failed> {
  const { form } = upload;
  const raw = replaceValue(form.body, form.model, ctx.route.target.model);
  const res = await sendPassthrough(gw, ctx, endpoint, { raw, contentType: form.contentType });
  if (isFailed(res)) return res;
  const header = res.headers['content-type'];
  const type = (Array.isArray(header) ? header[0] : header) ?? 'application/json';
  const { model, discountBp } = ctx.plan.resolution;
  const fromFile = wavSeconds(upload.file) ?? upload.file.length / BYTES_PER_SECOND_GUESS;
  if (type.startsWith('text/event-stream')) {
    // gpt-4o-transcribe with stream=true: relayed as it comes, billed from the file.
    ctx.reply.header('content-type', type).send(res.body.stream());
    await finished(ctx.reply.raw).catch(() => undefined);
    const price = priceTranscription({ quotas: model.quotas, seconds: fromFile, discountBp });
    return { kind: 'finished', status: LogStatus.Success, quota: price.quota, tokens: 0 };
  }
  const bytes = await res.body.bytes();
  const json = type.includes('json') ? tryParse(bytes.toString('utf8')) : undefined;
  const seconds = answeredSeconds(json) ?? fromFile;
  const price = priceTranscription({ quotas: model.quotas, seconds, discountBp });
  if (isRecord(json) && 'model' in json) json.model = ctx.plan.requested;
  const text = isRecord(json) ? (str(json.text) ?? '') : bytes.toString('utf8');
  const done: Finished = { kind: 'finished', status: LogStatus.Success, quota: price.quota, completion: text, tokens: 0 };
  await ctx.finish(done);
  ctx.reply.header('content-type', type).send(isRecord(json) ? json : bytes);
  return done;
}

function audioToText(gw: Gateway, request: FastifyRequest, reply: FastifyReply, endpoint: AudioEndpoint) {
  const upload = readUpload(request);
  return runCall(gw, request, reply, {
    endpoint: 'transcriptions',
    path: `/v1/${endpoint}`,
    requested: upload.form.requested,
    stream: false,
    prompt: upload.prompt,
    estimate: (r) => estimateTranscription({ quotas: r.model.quotas, seconds: maxAudioSeconds(upload.file.length), discountBp: r.discountBp }).quota,
    attempt: (ctx) => attempt(gw, ctx, endpoint, upload),
  });
}

export const transcriptions = (gw: Gateway, request: FastifyRequest, reply: FastifyReply) => audioToText(gw, request, reply, 'audio/transcriptions');
export const translations = (gw: Gateway, request: FastifyRequest, reply: FastifyReply) => audioToText(gw, request, reply, 'audio/translations');
