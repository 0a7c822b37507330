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

export interface Bus {
  /** Tells every listener of every instance (after the change is committed). */
  publish(event: ChangeEvent): void;
  /** Tells this process's listeners only: a change the periodic reconcile found in the database. */
  deliver(event: ChangeEvent): void;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
}

export function createMemoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    publish: (event) => void emitter.emit('change', event),
    deliver: (event) => void emitter.emit('change', event),
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}
