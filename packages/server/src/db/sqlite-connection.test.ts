import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { immediateTransactions } from './sqlite-connection';

describe('the main SQLite connection as kysely sees it', () => {
  const file = new SQLite(':memory:');
  const texts: string[] = [];
  const prepare = file.prepare.bind(file);
  file.prepare = ((text: string) => {
    texts.push(text);
    return prepare(text);
  }) as typeof file.prepare;
  const db = new Kysely<{ t: { id: number; v: string } }>({ dialect: new SqliteDialect({ database: immediateTransactions(file) }) });
  afterEach(() => {
    texts.length = 0;
  });

  it('keeps a statement prepared for the next query of the same text, reads and writes alike', async () => {
    await db.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('v', 'text').execute();
    texts.length = 0;
    for (let i = 1; i <= 5; i++) await db.insertInto('t').values({ id: i, v: `v${i}` }).execute();
    for (let i = 1; i <= 5; i++) expect(await db.selectFrom('t').select('v').where('id', '=', i).executeTakeFirst()).toEqual({ v: `v${i}` });
    expect(texts).toHaveLength(2);
    // A stream holds the connection, so a cached statement is never in use twice at once.
    const streamed: string[] = [];
    for (let n = 0; n < 2; n++) for await (const row of db.selectFrom('t').select('v').orderBy('id').stream()) streamed.push(row.v);
    expect(streamed).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('opens transactions with BEGIN IMMEDIATE', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('t').set({ v: 'x' }).where('id', '=', 1).execute();
    });
    expect(texts).toContain('begin immediate');
    expect(texts).not.toContain('begin');
  });

  it('prepares long multi-row texts every time, and keeps at most 128 statements', async () => {
    const long = `select 1 as one ${' '.repeat(2_000)}`;
    await sql.raw(long).execute(db);
    await sql.raw(long).execute(db);
    expect(texts.filter((t) => t === long)).toHaveLength(2);

    for (let i = 0; i < 129; i++) await sql.raw(`select ${i} as n`).execute(db);
    texts.length = 0;
    // The newest 128 are kept; the first, used least recently, went out.
    await sql.raw('select 128 as n').execute(db);
    await sql.raw('select 1 as n').execute(db);
    expect(texts).toEqual([]);
    await sql.raw('select 0 as n').execute(db);
    expect(texts).toEqual(['select 0 as n']);
  });
});
