import { describe, expect, it } from 'vitest';
import { boundedMemo, boundedTextMemo, keptWith } from './memo';

describe.each([
  ['boundedMemo', boundedMemo<string, object>],
  ['boundedTextMemo', boundedTextMemo<object>],
])('%s', (_, memo) => {
  it('makes a value once per text, tells texts of the same length apart, and starts over at its bound', () => {
    let made = 0;
    const get = memo(3, (text: string) => ({ text, n: ++made }));
    // Equal texts built apart (not the same string object), as a posted message brings them.
    const a = get(['sel', 'ect 1'].join(''));
    expect(get('select 1')).toBe(a);
    const b = get('select 2');
    expect(b).not.toBe(a);
    expect(b).toMatchObject({ text: 'select 2' });
    expect(get('select 22')).toMatchObject({ text: 'select 22' });
    expect(made).toBe(3);
    expect(get('select 2')).toBe(b);
    // A fourth text: everything is made again from then on.
    expect(get('select 3')).toMatchObject({ text: 'select 3', n: 4 });
    expect(get('select 1')).not.toBe(a);
    expect(get('select 3')).toMatchObject({ n: 4 });
    expect(made).toBe(5);
  });
});

describe('keptWith', () => {
  it('makes a value once per object, and again for another object alike', () => {
    let made = 0;
    const nameOf = keptWith((o: { id: string }) => `${o.id}:${++made}`);
    const a = { id: 'a' };
    expect(nameOf(a)).toBe('a:1');
    expect(nameOf(a)).toBe('a:1');
    expect(nameOf({ id: 'a' })).toBe('a:2');
    expect(made).toBe(2);
  });
});
