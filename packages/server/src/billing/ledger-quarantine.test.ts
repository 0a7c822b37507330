import { describe, expect, it } from 'vitest';
import type { NewCallLog } from '../db/schema';
import { dbError, minimalLog, refusesRows } from './ledger-quarantine';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('refusesRows', () => {
  it('tells a refused row from a database that cannot be reached', () => {
    // PostgreSQL: NUL byte, NOT NULL, out of range, too long, unknown column.
    for (const code of ['22021', '23502', '22003', '22001', '22P02', '42703']) expect(refusesRows(withCode(code))).toBe(true);
    for (const code of ['SQLITE_CONSTRAINT_NOTNULL', 'SQLITE_CONSTRAINT_CHECK', 'SQLITE_MISMATCH', 'SQLITE_TOOBIG']) expect(refusesRows(withCode(code))).toBe(true);
    expect(refusesRows(withCode('SQLITE_ERROR', 'table call_logs has no column named extra'))).toBe(true);
    expect(refusesRows(new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null'))).toBe(true);
    // Connections, timeouts, shutdowns, locks, deadlocks, serialization, privileges, plain bugs: the whole batch later.
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57014', '08006', '40001', '40P01', '53300', '42501', 'SQLITE_BUSY', 'SQLITE_IOERR', 'SQLITE_FULL']) {
      expect(refusesRows(withCode(code))).toBe(false);
    }
    expect(refusesRows(withCode('SQLITE_ERROR', 'no such table: call_logs'))).toBe(false);
    expect(refusesRows(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(refusesRows(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(refusesRows('text')).toBe(false);
  });

  it('reports the code and message only', () => {
    const err = Object.assign(withCode('23502', 'null value in column "err_msg"'), { detail: 'Failing row contains (secret prompt)' });
    expect(dbError(err)).toEqual({ code: '23502', message: 'null value in column "err_msg"' });
  });
});

describe('minimalLog', () => {
  const row = (over: Record<string, unknown>) => ({ id: '1', trace_id: 't', attempt: 0, user_id: 7, total_price: 100, model: 'gpt', prompt: 'hi', ...over }) as unknown as NewCallLog;

  it('keeps identity, accounting and storable values; empties the content and what the database cannot take', () => {
    expect(minimalLog(row({ err_msg: 'bad\0', duration: NaN, status: null, rid: 2 ** 40, prompt_ratio: Infinity, extra: 'x', completion: 'c' }))).toEqual({
      id: '1',
      trace_id: 't',
      attempt: 0,
      user_id: 7,
      total_price: 100,
      model: 'gpt',
    });
    // A big number fits a bigint column, not an integer one.
    expect(minimalLog(row({ total_price: 2 ** 40, user_id: 2 ** 40 }))).toMatchObject({ total_price: 2 ** 40 });
    expect(minimalLog(row({ user_id: 2 ** 40 }))).not.toHaveProperty('user_id');
  });

  it('gives a new id when the id cannot be stored, and nothing when the row cannot be identified', () => {
    expect(minimalLog(row({ id: null }))?.id).toMatch(/^\d+$/);
    expect(minimalLog(row({ trace_id: null }))).toBeUndefined();
    expect(minimalLog(row({ trace_id: 'x'.repeat(65) }))).toBeUndefined();
    expect(minimalLog(row({ attempt: 1.5 }))).toBeUndefined();
  });
});
