import { describe, expect, it } from 'vitest';
import { bracketsOver, deeperThan } from './json-body';

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

describe('bracketsOver', () => {
  it('counts both kinds of opening bracket, up to the limit exactly', () => {
    const text = (levels: number) => JSON.stringify(nest(levels));
    expect(bracketsOver(text(128), 128)).toBe(false);
    expect(bracketsOver(text(129), 128)).toBe(true);
    expect(bracketsOver('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(bracketsOver('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(bracketsOver('"text"', 0)).toBe(false);
  });

  it('never says no for a text deeper than the limit: a depth needs as many brackets', () => {
    for (let levels = 0; levels < 300; levels += 7) {
      const text = JSON.stringify(nest(levels));
      if (deeperThan(JSON.parse(text), 128)) expect(bracketsOver(text, 128)).toBe(true);
    }
  });
});
