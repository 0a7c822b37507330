import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database, NewCallLog } from '../db/schema';
import type { AccountRef } from './ledger-types';
import { debitStatement, insertLogs, planEntries } from './ledger-write';

// Compiling only: neither database is reached.
const sqlite = new Kysely<Database>({ dialect: new SqliteDialect({ database: { close() {}, prepare: () => ({}) as never } }) });
const postgres = new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) });

// A few columns are enough to compare the compiled texts.
const row = (i: number): NewCallLog => ({ id: `t${i}:0`, trace_id: `t${i}`, attempt: 0, user_id: 7, req_time: 1_700_000_000_000 + i, total_price: i * 3, model: 'gpt-4o', messages: `[{"role":"user","content":"${i}"}]`, prompt_ratio: 0.75 }) as NewCallLog;

describe('insertLogs', () => {
  it.each([
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ])('compiles what kysely compiles, on %s', (_, db) => {
    for (const rows of [[row(1)], Array.from({ length: 100 }, (_, i) => row(i)), Array.from({ length: 37 }, (_, i) => row(i))]) {
      const conflict = db === postgres ? ['trace_id', 'attempt', 'req_time'] as const : ['trace_id', 'attempt'] as const;
      const kysely = db.insertInto('call_logs').values(rows).onConflict((oc) => oc.columns([...conflict]).doNothing()).compile();
      const ours = insertLogs(db, rows);
      expect(ours.sql).toBe(kysely.sql);
      expect(ours.parameters).toEqual(kysely.parameters);
    }
  });

  it('leaves rows of different shapes to kysely (its nulls for missing columns)', () => {
    const odd = [row(1), { ...row(2), err_msg: 'x' }, { ...row(3), model: undefined }] as NewCallLog[];
    const kysely = sqlite.insertInto('call_logs').values(odd).onConflict((oc) => oc.columns(['trace_id', 'attempt']).doNothing()).compile();
    expect(insertLogs(sqlite, odd)).toMatchObject({ sql: kysely.sql, parameters: kysely.parameters });
    const reordered = [row(1), Object.fromEntries(Object.entries(row(2)).reverse()) as NewCallLog];
    const k2 = sqlite.insertInto('call_logs').values(reordered).onConflict((oc) => oc.columns(['trace_id', 'attempt']).doNothing()).compile();
    expect(insertLogs(sqlite, reordered)).toMatchObject({ sql: k2.sql, parameters: k2.parameters });
  });

  it('writes a batch of any size with a few statement shapes, every row once and in order', () => {
    // The SQLite writer keeps a prepared statement per shape: one per remainder (1–99 rows) held ~40 MB.
    const shapes = new Set<string>();
    for (let n = 1; n <= 350; n++) {
      const logs = Array.from({ length: n }, (_, i) => row(i));
      const { statements } = planEntries(sqlite, [{ debits: [], logs }]);
      for (const q of statements) shapes.add(q.sql);
      const columns = Object.keys(logs[0]!); // created_at stamped on by planEntries
      expect(statements.flatMap((q) => q.parameters.filter((_, i) => i % columns.length === columns.indexOf('trace_id')))).toEqual(logs.map((l) => l.trace_id));
    }
    expect(shapes.size).toBeLessThanOrEqual(8);
  });
});

describe('debitStatement', () => {
  // What it replaced: kysely's relative update of the account's row.
  const kysely = (db: Kysely<Database>, a: AccountRef, amount: number) => {
    const spend = (eb: any) => ({ used_quota: eb('used_quota', '+', amount), ...(a.limited ? { quota: eb('quota', '-', amount) } : {}) });
    if (a.kind === 'user' || a.kind === 'reseller') return db.updateTable('users').set(spend).where('user_id', '=', a.id).compile();
    if (a.kind === 'app') return db.updateTable('apps').set(spend).where('app_id', '=', a.id).compile();
    if (a.kind === 'app_key') return db.updateTable('app_keys').set(spend).where('id', '=', a.id).compile();
    return db.updateTable('groups').set(spend).where('id', '=', a.id).compile();
  };
  const accounts: AccountRef[] = [
    { kind: 'user', id: 7, limited: true },
    { kind: 'user', id: 8, limited: false },
    { kind: 'reseller', id: 3, limited: false },
    { kind: 'app', id: 11, limited: true },
    { kind: 'app', id: 12, limited: false },
    { kind: 'app_key', id: 'k1', hash: 'h', limited: true },
    { kind: 'app_key', id: 'k2', hash: 'h', limited: false },
    { kind: 'group', id: 'g1', limited: true },
    { kind: 'group', id: 'g2', limited: false },
  ];
  it.each([
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ])('compiles what kysely compiles, on %s', (_, db) => {
    for (const a of accounts) {
      for (const amount of [1, 250, -40]) {
        const ours = debitStatement(db === postgres, a, amount);
        const theirs = kysely(db, a, amount);
        expect(ours.sql).toBe(theirs.sql);
        expect(ours.parameters).toEqual(theirs.parameters);
      }
    }
  });
});
