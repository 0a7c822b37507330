// Change notifications: every console write publishes what changed, so caches (the gateway's config
// snapshot) can follow. In-process here; the Redis pub/sub bus (bus/redis.ts) implements the same
// interface when instances share a database. Read-your-writes: a listener may return the promise of
// applying an event (the snapshot's reload); `publish` resolves only once this process's listeners have
// applied it, and `settled` waits for all of them, so a console answer (http/route.ts awaits `settled`)
// comes after the gateway of the same instance sees the write.

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

/** Hears a change; a promise it returns is the change being applied (waited for, never rejecting). */
export type ChangeListener = (event: ChangeEvent) => unknown;

export interface Bus {
  /**
   * Tells every listener of every instance (after the change is committed); this process's listeners
   * hear it at once. Resolves when they have applied it (the gateway's snapshot holds the change) and
   * the event has left for the other instances (Redis has it), and so has whatever this process's
   * listeners sent on the shared Redis connection before it (the balances and sessions they
   * invalidate): a write that awaits it answers only once its own instance's next request, and every
   * instance's next balance and session check, see it. Never rejects. Publishing inside an open
   * transaction must not be awaited: the listeners read the committed database.
   */
  publish(event: ChangeEvent): Promise<void>;
  /** Tells this process's listeners only: a change the periodic reconcile found in the database. */
  deliver(event: ChangeEvent): void;
  subscribe(listener: ChangeListener): () => void;
  /** Resolves when everything published or heard so far is applied here (and, in Redis mode, has left). Never rejects. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const noop = () => undefined;

/** This process's listeners and the work they (and the publishes) still have in hand. */
export function localListeners() {
  const listeners = new Set<ChangeListener>();
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<unknown>): Promise<void> => {
    const done = work.then(noop, noop);
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
    return done;
  };
  return {
    track,
    /** Calls every listener; resolves when the work they returned is done. */
    emit(event: ChangeEvent): Promise<void> {
      const work: Promise<unknown>[] = [];
      for (const listener of [...listeners]) {
        const applying = listener(event);
        if (applying instanceof Promise) work.push(applying);
      }
      return work.length ? track(Promise.all(work)) : Promise.resolve();
    },
    subscribe(listener: ChangeListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    settled: async (): Promise<void> => void (await Promise.all(inFlight)),
    clear: () => listeners.clear(),
  };
}

export function createMemoryBus(): Bus {
  const local = localListeners();
  return {
    publish: (event) => local.emit(event),
    deliver: (event) => void local.emit(event),
    subscribe: local.subscribe,
    settled: local.settled,
    close: async () => local.clear(),
  };
}
