// Change notifications: every console write publishes what changed, so caches (the gateway's config
// snapshot) can follow. In-process here; the Redis pub/sub bus (bus/redis.ts) implements the same
// interface when instances share a database.
import { EventEmitter } from 'node:events';

export interface ChangeEvent {
  /** Table name of the changed entity, e.g. "corps". */
  entity: string;
  ids: string[];
  op: 'create' | 'update' | 'delete';
}

/**
 * A `users` event names accounts by `user_id` (a 32-bit serial, as text) or by row `id` (a 64-bit
 * time-ordered id, digits too, far above 32 bits): the user_id, or undefined for a row id.
 */
export function userIdOf(id: string): number | undefined {
  if (!/^\d{1,10}$/.test(id)) return undefined;
  const n = Number(id);
  return n <= 2_147_483_647 ? n : undefined;
}

export interface Bus {
  /**
   * Tells every listener of every instance (after the change is committed); this process's listeners
   * hear it at once. Resolves when the event has left for the other instances (Redis has it), and so
   * has whatever this process's listeners sent on the shared Redis connection before it (the balances
   * and sessions they invalidate): a write that awaits it answers only once every instance's next
   * request sees those. Never rejects.
   */
  publish(event: ChangeEvent): Promise<void>;
  /** Tells this process's listeners only: a change the periodic reconcile found in the database. */
  deliver(event: ChangeEvent): void;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
}

export function createMemoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    publish: async (event) => void emitter.emit('change', event),
    deliver: (event) => void emitter.emit('change', event),
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}
