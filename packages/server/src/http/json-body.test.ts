import { describe, expect, it } from 'vitest';
import { deeperThan } from './json-body';

const nest = (levels: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
  return v;
};

describe('deeperThan', () => {
  it('counts arrays and objects alike, up to the limit exactly', () => {
    expect(deeperThan(nest(128), 128)).toBe(false);
    expect(deeperThan(nest(129), 128)).toBe(true);
    expect(deeperThan('text', 0)).toBe(false);
    expect(deeperThan({ a: [1, 2, { b: null }], c: { d: {} } }, 3)).toBe(false);
    expect(deeperThan({ a: [1, 2, { b: null }], c: { d: {} } }, 2)).toBe(true);
  });

  it('walks 100,000 levels without recursion', () => {
    expect(deeperThan(nest(100_000), 128)).toBe(true);
  });
});
