// Where the product's log lines go (stdout), written so that logging can never stop the process. A pipe
// nobody reads any more (a supervisor or a `| tee` that died, its read end still held somewhere) fills
// up, and a write to it blocks for good when its file description is in blocking mode — which any
// process sharing it can switch at any time (libuv clears O_NONBLOCK on the stdio a child inherits: npm,
// the esbuild service, any `2>&1` sibling). pino's default destination then hangs the exit: a blocked
// write holds a libuv pool thread, which `process.exit` waits for, and its exit flush retries forever.
// Here the lines of one turn of the event loop are joined into one synchronous attempt, on the next turn,
// on a descriptor first put back in non-blocking mode (under load that is one write, not two system calls
// a line, for every answer the turn ended): it takes what fits and never waits. What does not fit waits in memory (at most `maxBytes`; more is
// dropped) and is tried again on a timer; a broken output (EPIPE, any other error) drops every later
// line; the flushes wait a bounded time.
import fs from 'node:fs';

export interface LogSink {
  write(line: string): boolean;
  /** Calls back once every line written so far is out, or the output is broken (pino's `logger.flush`). */
  flush(cb?: (err?: Error) => void): void;
  /** At exit: writes what is left, giving up after `waitMs` of a full pipe or at the first error. */
  flushSync(waitMs?: number): void;
  /** Lines lost: to a broken output or beyond `maxBytes` of backlog. */
  readonly dropped: number;
}

const RETRY_MS = 50;
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * `fd`'s sink. `nonBlocking` puts the descriptor in non-blocking mode again before each write (for
 * stdout: see stdoutLog in ops/logging.ts); a file needs none.
 */
export function logSink(fd: number, nonBlocking: () => void = () => undefined, maxBytes = 8 << 20): LogSink {
  /** Lines of this turn, written together on the next (setImmediate, set by the first of them). */
  let pending: string[] = [];
  /** Bytes waiting for a pipe that was full, oldest first, with the number of lines each holds. */
  let backlog: Buffer[] = [];
  let backlogLines: number[] = [];
  /** The backlog's bytes and the pending lines' characters: what `maxBytes` bounds. */
  let backlogBytes = 0;
  let broken = false;
  let dropped = 0;
  let retry: NodeJS.Timeout | undefined;
  let waiters: ((err?: Error) => void)[] = [];

  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const cb of w) cb();
  };
  const breakOff = () => {
    broken = true;
    dropped += backlogLines.reduce((a, b) => a + b, 0) + pending.length;
    backlog = [];
    backlogLines = [];
    pending = [];
    backlogBytes = 0;
    clearTimeout(retry);
    wake();
  };

  /** The pending lines join the backlog as one buffer. */
  function takePending(): void {
    if (!pending.length) return;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    const buf = Buffer.from(text);
    backlog.push(buf);
    backlogLines.push(pending.length);
    backlogBytes += buf.length - text.length;
    pending = [];
  }

  /** Writes as much of the backlog as the output takes now; false once it is full (or broken). */
  function drain(): boolean {
    takePending();
    if (backlog.length) nonBlocking();
    while (backlog.length && !broken) {
      const head = backlog[0]!;
      let n: number;
      try {
        n = fs.writeSync(fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') breakOff();
        return false;
      }
      backlogBytes -= n;
      if (n < head.length) backlog[0] = head.subarray(n);
      else {
        backlog.shift();
        backlogLines.shift();
      }
    }
    if (!broken) wake();
    return !broken;
  }

  function pump(): void {
    retry = undefined;
    // Still full: try again later (the timer does not keep the process alive).
    if (!drain() && !broken) retry = setTimeout(pump, RETRY_MS).unref();
  }

  return {
    get dropped() {
      return dropped;
    },
    write(line) {
      if (broken || backlogBytes + line.length > maxBytes) {
        dropped++;
        return true;
      }
      // A full pipe's timer takes these lines with the backlog.
      if (!pending.length && !retry) setImmediate(pump);
      pending.push(line);
      backlogBytes += line.length;
      return true;
    },
    flush(cb = () => undefined) {
      if (broken || (!backlog.length && !pending.length)) return void process.nextTick(cb);
      waiters.push(cb);
    },
    flushSync(waitMs = 500) {
      const until = Date.now() + waitMs;
      while (!drain() && !broken && Date.now() < until) sleep(10);
    },
  };
}
