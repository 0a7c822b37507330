import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource, flag, ids, json, parseJson } from './resource';

const thing = defineResource({
  prefix: '/thing',
  fields: z.object({
    name: z.string(),
    weight: z.number().int().default(1),
    is_on: z.boolean().default(false),
    tags: z.array(z.string()).default([]),
    config: z.object({ depth: z.number().default(2) }).default({ depth: 2 }),
    note: z.string().optional(),
    links: z.array(z.string()).default([]),
  }),
  columns: { is_on: flag, tags: ids, config: json(() => ({ depth: 2 })) },
  virtual: ['links'],
});

describe('a resource definition', () => {
  it('stores booleans as 0/1 and JSON as text, leaves virtual fields out, and reads them back', () => {
    const input = thing.fields.parse({ name: 'a', is_on: true, tags: ['x'], links: ['l'] });
    const row = thing.encode(input);
    expect(row).toEqual({ name: 'a', weight: 1, is_on: 1, tags: '["x"]', config: '{"depth":2}' });
    expect(thing.decode(row)).toEqual({ name: 'a', weight: 1, is_on: true, tags: ['x'], config: { depth: 2 }, note: undefined });
    expect(thing.stored).toEqual(['name', 'weight', 'is_on', 'tags', 'config', 'note']);
  });

  it('reads unreadable or hand-written columns as their fallback', () => {
    const row = { name: 'b', weight: 3, is_on: 0, tags: '{"not":"a list"}', config: 'not json', note: 'n' };
    expect(thing.decode(row)).toMatchObject({ is_on: false, tags: [], config: { depth: 2 } });
    expect(ids.decode('["a", 1, null, "b"]')).toEqual(['a', 'b']);
    expect(parseJson('', 5)).toBe(5);
  });

  it('gives the declared defaults, and picks only declared fields from a wire record', () => {
    expect(thing.defaults()).toEqual({ weight: 1, is_on: false, tags: [], config: { depth: 2 }, links: [] });
    expect(thing.pick({ name: 'c', id: 'x1', created_at: 'then', weight: 2 })).toEqual({ name: 'c', weight: 2 });
  });

  it('encodes only the fields a partial update holds, so absent ones keep what is stored', () => {
    expect(thing.encodePartial({ is_on: false, tags: ['y'], links: ['l'] })).toEqual({ is_on: 0, tags: '["y"]' });
    expect(thing.encodePartial({})).toEqual({});
  });
});
