import { describe, expect, it } from 'vitest';
import { CallSignal } from './call-signal';

describe('CallSignal', () => {
  it('tells each listener once, not those that stopped listening, with an AbortError as the reason', () => {
    const signal = new CallSignal();
    const ran: string[] = [];
    const listener = (name: string) => ({ callAborted: (reason: Error) => ran.push(`${name}:${reason.name}`) });
    const b = listener('b');
    signal.onAbort(listener('a'));
    signal.onAbort(b);
    signal.onAbort(listener('c'));
    signal.offAbort(b);
    signal.abort();
    signal.abort();
    expect(ran).toEqual(['a:AbortError', 'c:AbortError']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'AbortError' });
  });

  it('does not tell a listener added after the abort', () => {
    const signal = new CallSignal();
    signal.abort();
    let ran = false;
    signal.onAbort({ callAborted: () => (ran = true) });
    expect(ran).toBe(false);
  });
});
