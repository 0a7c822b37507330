import { describe, expect, it } from 'vitest';
import { diffLines, flatten } from './diff';

describe('audit diff', () => {
  it('flattens rows, maps of rows and requests by path', () => {
    expect([...flatten({ name: 'a', models: ['m1', 'm2'], quota: { n: 1 }, empty: [] })]).toEqual([
      ['name', 'a'],
      ['models', '["m1","m2"]'],
      ['quota.n', '1'],
      ['empty', '[]'],
    ]);
    expect([...flatten({ r1: { status: 1 }, r2: { status: 2 } })]).toEqual([
      ['r1.status', '1'],
      ['r2.status', '2'],
    ]);
    expect([...flatten(null)]).toEqual([]);
  });

  it('pairs both sides and marks what changed, masked secrets included', () => {
    const lines = diffLines({ name: 'a', status: 1, password_hash: '******' }, { name: 'b', status: 1, password_hash: '******' }, ['name', 'password_hash']);
    expect(lines).toEqual([
      { path: 'name', before: 'a', after: 'b', changed: true },
      { path: 'status', before: '1', after: '1', changed: false },
      { path: 'password_hash', before: '******', after: '******', changed: true },
    ]);
    // A create or a delete has one side: nothing is "changed", the empty side says what happened.
    expect(diffLines(null, { name: 'x' })).toEqual([{ path: 'name', before: undefined, after: 'x', changed: false }]);
  });

  it('shows stored epoch times through the given clock, other numbers as they are', () => {
    const time = (ms: number) => `t${ms}`;
    const lines = diffLines({ updated_at: 1795494671621, quota: 1795494671621 }, { updated_at: 1795494672000, quota: 5 }, [], time);
    expect(lines).toEqual([
      { path: 'updated_at', before: 't1795494671621', after: 't1795494672000', changed: true },
      { path: 'quota', before: '1795494671621', after: '5', changed: true },
    ]);
  });
});
