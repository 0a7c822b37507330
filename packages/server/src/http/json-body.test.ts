import { describe, expect, it } from 'vitest';
import { bodyFault } from './json-body';

const nest = (levels: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
  return v;
};

describe('bodyFault', () => {
  it('counts arrays and objects alike, up to the depth limit exactly', () => {
    expect(bodyFault(nest(128), 128)).toBeUndefined();
    expect(bodyFault(nest(129), 128)).toBe('too_deep');
    expect(bodyFault('text', 0)).toBeUndefined();
    expect(bodyFault({ a: [1, 2, { b: null }], c: { d: {} } }, 3)).toBeUndefined();
    expect(bodyFault({ a: [1, 2, { b: null }], c: { d: {} } }, 2)).toBe('too_deep');
  });

  it('walks 100,000 levels without recursion', () => {
    expect(bodyFault(nest(100_000), 128)).toBe('too_deep');
  });

  it('finds prototype poisoning at any depth, however its keys were spelt', () => {
    for (const text of ['{"__proto__":{"a":1}}', '{"\\u005f\\u005fproto__":1}', '[1,{"x":[{"constructor":{"prototype":{}}}]}]', '{"constr\\u0075ctor":{"prot\\u006ftype":null}}']) {
      expect(bodyFault(JSON.parse(text), 128), text).toBe('poisoned');
    }
  });

  it('takes the same words where they poison nothing', () => {
    for (const text of ['{"constructor":"A"}', '{"constructor":{"name":"A"}}', '{"x":"__proto__","y":["constructor","prototype"]}', '{"prototype":{"constructor":1}}']) {
      expect(bodyFault(JSON.parse(text), 128), text).toBeUndefined();
    }
  });
});
