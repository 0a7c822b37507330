// The change bus across instances: Redis pub/sub on `<prefix>bus`, one publisher (the shared command
// connection) and one subscriber connection. Listeners in this process hear an event at once, when it
// is published (and the publish waits for them to apply it, bus/index.ts); the copy Redis sends back
// carries this instance's id and is dropped, so every instance hears every event exactly once. A
// message lost while the subscriber was disconnected is healed by the gateway's periodic reconcile
// (gateway/reconcile.ts), which also runs at once on reconnect.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisConn } from '../redis/connect';
import { localListeners, type Bus, type ChangeEvent } from './index';

export interface RedisBus extends Bus {
  /** Called after the subscriber reconnects (messages may have been missed meanwhile). */
  onReconnect(listener: () => void): () => void;
}

function parse(text: string): { o: string; e: ChangeEvent } | undefined {
  try {
    const m = JSON.parse(text) as { o?: unknown; e?: Partial<ChangeEvent> };
    const e = m.e;
    if (typeof m.o !== 'string' || !e || typeof e.entity !== 'string' || !Array.isArray(e.ids) || !['create', 'update', 'delete'].includes(String(e.op))) return undefined;
    return { o: m.o, e: { entity: e.entity, op: e.op!, ids: e.ids.map(String) } };
  } catch {
    return undefined;
  }
}

export async function createRedisBus(conn: RedisConn, log: FastifyBaseLogger): Promise<RedisBus> {
  const channel = `${conn.prefix}bus`;
  const origin = randomUUID();
  const local = localListeners();
  const reconnects = new Set<() => void>();
  const sub = conn.client.duplicate({ maxRetriesPerRequest: null });
  let connected = false;
  sub.on('error', () => {
    // Reported by the command connection (redis/connect.ts); the subscriber reconnects by itself.
  });
  sub.on('ready', () => {
    if (connected) for (const l of reconnects) l();
    connected = true;
  });
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    const m = parse(text);
    if (!m) return log.warn({ channel }, 'ignored a malformed change event');
    if (m.o !== origin) void local.emit(m.e);
  });
  await sub.subscribe(channel);

  return {
    publish(event) {
      const applied = local.emit(event);
      // After the listeners' commands on the same connection, which Redis runs in order.
      const sent = conn.client
        .publish(channel, JSON.stringify({ o: origin, e: event }))
        .catch((err: unknown) => log.warn({ err, entity: event.entity }, 'publishing a change event failed; other instances catch up at their next reconcile'));
      return local.track(Promise.all([applied, sent]));
    },
    deliver: (event) => void local.emit(event),
    subscribe: local.subscribe,
    settled: local.settled,
    onReconnect(listener) {
      reconnects.add(listener);
      return () => reconnects.delete(listener);
    },
    async close() {
      local.clear();
      reconnects.clear();
      sub.disconnect();
    },
  };
}
