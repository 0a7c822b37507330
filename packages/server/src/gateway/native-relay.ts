// The native half of an ingress whose upstream speaks the client's own protocol (/v1/messages to
// Anthropic, /v1/responses to a Responses upstream, /v1beta to Gemini): the upstream's events go on as
// they come, each ingress saying only what an event means; the closing event is held back until the
// call is charged; and every way a stream can end (an error event, a broken connection, a client gone,
// no closing event) is settled here, the same way for all of them.
import { LogStatus } from '@fastgate/core/entities/call-log';
import type { ChatRequest, StreamEvent, UpstreamError, UpstreamRequest, Usage } from '../providers/types';
import { settledAnswer } from './chat';
import type { Gateway } from './gateway';
import { brokenStream, emptyStream, failure, isFailed, sendOrFail, SseOut, withoutKey } from './relay';
import type { AttemptContext, Failed, Finished } from './attempt';
import { readEvents } from './sse';

/** What one upstream event is to the client: a frame to pass on, the closing frame, or the upstream's error. */
type RelayStep = { kind: 'pass'; text: string } | { kind: 'close'; text: string } | { kind: 'error'; error: UpstreamError; text: string };

export interface NativeStream {
  /** One upstream event; undefined drops it (keep-alives). It may add to the usage and completion below. */
  step(event: StreamEvent): RelayStep | undefined;
  /** The usage the upstream reported so far. */
  usage(): Usage | undefined;
  /** The answer's text so far: what a local count bills when the upstream's usage is missing. */
  completion(): string;
  /** The ingress's error frame, for an upstream that broke after the first byte. */
  errorEvent(message: string): string;
  /** Without a closing event the answer is incomplete (Responses); else the upstream's EOF ends it. */
  closeRequired?: boolean;
  /** After the charge, before the closing frame goes out (the Responses store). */
  beforeClose?(): Promise<void>;
}

export async function relayNativeStream(gw: Gateway, ctx: AttemptContext, chat: ChatRequest, request: UpstreamRequest, stream: NativeStream): Promise<Finished | Failed> {
  const res = await sendOrFail(gw, ctx, request);
  if (isFailed(res)) return res;
  const sse = new SseOut(ctx);
  /** The closing frame: a later frame (Gemini may send one) goes out after it, the last one after the charge. */
  let held: string | undefined;
  let midError: string | undefined;
  let errorText: string | undefined;
  try {
    for await (const event of readEvents(res.body)) {
      const step = stream.step(event);
      if (!step) continue;
      if (step.kind === 'error') {
        const error = { ...step.error, message: withoutKey(ctx.route.key, step.error.message) };
        if (!sse.started) return failure(error);
        midError = error.message;
        errorText = withoutKey(ctx.route.key, step.text);
        break;
      }
      if (held !== undefined) await sse.write(held);
      held = undefined;
      if (step.kind === 'close') {
        sse.start();
        held = step.text;
      } else await sse.write(step.text);
    }
  } catch (err) {
    if (ctx.signal.aborted) {
      // The client left: bill what it was sent (docs/ORIGINAL-GATEWAY.md §1.11), counted locally.
      sse.end();
      return { ...settledAnswer(ctx, chat, undefined, stream.completion(), true, LogStatus.Aborted), errMsg: 'client closed the connection' };
    }
    if (!sse.started) return brokenStream(err);
    midError = `The upstream stream broke: ${(err as Error).message}`;
    errorText = stream.errorEvent(midError);
  }
  // An upstream that ended without a single event: a failure the next key may fix.
  if (!sse.started) return emptyStream();
  if (midError === undefined && held === undefined && stream.closeRequired) {
    midError = 'The upstream ended the stream before the answer completed.';
    errorText = stream.errorEvent(midError);
  }
  const failed = midError !== undefined;
  const settled = settledAnswer(ctx, chat, failed ? undefined : stream.usage(), stream.completion(), failed, failed ? LogStatus.Failed : LogStatus.Success);
  const done = failed ? { ...settled, errMsg: midError } : settled;
  await ctx.finish(done);
  if (held !== undefined) {
    await stream.beforeClose?.();
    await sse.write(held);
  }
  if (errorText !== undefined) await sse.write(errorText);
  sse.end();
  return done;
}
