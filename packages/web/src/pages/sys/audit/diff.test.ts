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
});
