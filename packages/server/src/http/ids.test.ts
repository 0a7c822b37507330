import { describe, expect, it } from 'vitest';
import { newId, newTraceId } from './ids';

describe('ids', () => {
  it('trace ids are 32 hex digits, distinct, and sort by the time they were made', () => {
    const t = Date.UTC(2026, 10, 28, 12);
    const ids = [newTraceId(t), newTraceId(t), newTraceId(t + 1), newTraceId(t + 60_000), newTraceId(t + 86_400_000)];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Their index takes a batch's rows at its end: a later millisecond never sorts before an earlier one.
    expect(ids.slice(2)).toEqual([...ids.slice(2)].sort());
    expect(ids.slice(2).every((id) => id > ids[0]! && id > ids[1]!)).toBe(true);
  });

  it('trace ids made in a row stay distinct across refills of the random pool', () => {
    const ids = Array.from({ length: 2000 }, () => newTraceId());
    expect(new Set(ids).size).toBe(2000);
  });

  it('record ids grow with time and within a millisecond', () => {
    const ids = Array.from({ length: 100 }, () => BigInt(newId()));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });
});
