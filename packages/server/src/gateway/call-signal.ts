// A call's "the client left": what the gateway used an AbortSignal for (`aborted`, `reason`, listeners),
// without EventTarget. Node 20 spends ~3 µs adding and removing one `abort` listener on an AbortSignal,
// and every upstream request of every call added one (docs/BENCHMARKS.md, seventh pass).

export class CallSignal {
  aborted = false;
  reason: Error | undefined;
  private listeners: (() => void)[] | undefined;

  /** Marks the call aborted and runs its listeners once. */
  abort(reason: Error = new DOMException('The client closed the connection.', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }

  /** Runs `listener` when the call is aborted (not if it already was); returns how to stop listening. */
  onAbort(listener: () => void): () => void {
    if (this.aborted) return () => {};
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.listeners!.splice(at, 1);
    };
  }
}
