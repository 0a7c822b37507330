import { describe, expect, it } from 'vitest';
import { CallSignal } from './call-signal';

describe('CallSignal', () => {
  it('runs each listener once, not those that stopped listening, with an AbortError as the reason', () => {
    const signal = new CallSignal();
    const ran: string[] = [];
    signal.onAbort(() => ran.push('a'));
    const stop = signal.onAbort(() => ran.push('b'));
    signal.onAbort(() => ran.push('c'));
    stop();
    signal.abort();
    signal.abort();
    expect(ran).toEqual(['a', 'c']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'AbortError' });
  });

  it('does not call a listener added after the abort', () => {
    const signal = new CallSignal();
    signal.abort();
    let ran = false;
    signal.onAbort(() => (ran = true))();
    expect(ran).toBe(false);
  });
});
