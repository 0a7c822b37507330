// A call's "the client left": what the gateway used an AbortSignal for (`aborted`, `reason`, listeners),
// without EventTarget. Node 20 spends ~3 µs adding and removing one `abort` listener on an AbortSignal,
// and every upstream request of every call added one (docs/BENCHMARKS.md, seventh pass).

/**
 * Told once when the call is aborted. An object, not a function: the upstream request's handler listens
 * itself, where a closure over it was one more object held by every call in flight.
 */
export interface AbortListener {
  callAborted(reason: Error): void;
}

export class CallSignal {
  aborted = false;
  reason: Error | undefined;
  private listeners: AbortListener[] | undefined;

  /** Marks the call aborted and tells its listeners once. */
  abort(reason: Error = new DOMException('The client closed the connection.', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener.callAborted(reason);
  }

  /** Tells `listener` when the call is aborted (not if it already was), until `offAbort`. */
  onAbort(listener: AbortListener): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  offAbort(listener: AbortListener): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }
}
