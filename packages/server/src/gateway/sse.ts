// Server-sent events, both ways. Upstream framing is parsed here once (eventsource-parser handles
// multi-line data, CRLF, comments and events split across network chunks), so adapters only ever see
// whole events; formatEvent writes the frames the gateway sends to its clients.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { StreamEvent } from '../providers/types';

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** Reads a web stream with a reader so that stopping early (client gone) cancels the upstream body. */
async function* bytesOf(body: ByteSource): AsyncGenerator<Uint8Array> {
  if (!('getReader' in body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (value) yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function toEvent(m: EventSourceMessage): StreamEvent {
  return m.event ? { event: m.event, data: m.data } : { data: m.data };
}

/** Yields each upstream event in order. A last event that lacks its closing blank line is still
 *  delivered, since some upstreams end the body right after the final `data:` line. */
export async function* readEvents(body: ByteSource): AsyncGenerator<StreamEvent> {
  const queue: StreamEvent[] = [];
  const parser = createParser({ onEvent: (m) => queue.push(toEvent(m)) });
  const decoder = new TextDecoder();
  for await (const bytes of bytesOf(body)) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    while (queue.length) yield queue.shift() as StreamEvent;
  }
  // Terminate a last event that lacks its blank line; with nothing pending this dispatches nothing.
  parser.feed(`${decoder.decode()}\n\n`);
  while (queue.length) yield queue.shift() as StreamEvent;
}

/** One SSE frame. Objects are JSON-encoded; text with newlines is split over several `data:` lines,
 *  which the client's parser joins back with `\n`. */
export function formatEvent(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const lines = text.split(/\r\n|\r|\n/).map((l) => `data: ${l}`);
  return `${event ? `event: ${event}\n` : ''}${lines.join('\n')}\n\n`;
}
