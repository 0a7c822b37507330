import { describe, expect, it } from 'vitest';
import { isStorable, storable, storableRow } from './text';

describe('storable text', () => {
  it('keeps what UTF-8 and PostgreSQL can hold, surrogate pairs included', () => {
    for (const s of ['', 'plain', '😀 汉字 العربية', '\u202Eevil\u200B', '<b>x</b>']) {
      expect(isStorable(s)).toBe(true);
      expect(storable(s)).toBe(s);
    }
  });

  it('replaces NUL bytes and lone surrogates with U+FFFD', () => {
    expect(isStorable('a\u0000b')).toBe(false);
    expect(storable('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    expect(storable('\uD800x')).toBe('\uFFFDx');
    expect(storable('x\uDFFF')).toBe('x\uFFFD');
    expect(storable('\uDFFF\uD800')).toBe('\uFFFD\uFFFD');
  });

  it('cleans every string of a row and leaves the rest', () => {
    const row = { a: 'x\u0000', n: 1, b: null, c: 'ok' };
    expect(storableRow(row)).toEqual({ a: 'x\uFFFD', n: 1, b: null, c: 'ok' });
    // The row given is left as it was; one with nothing to clean is returned as is (no copy per call log).
    expect(row.a).toBe('x\u0000');
    const clean = { a: 'ok', n: 1 };
    expect(storableRow(clean)).toBe(clean);
  });
});
