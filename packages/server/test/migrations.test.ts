import { describe, expect, it } from 'vitest';
import { startServer } from './helpers';

/** Table → sorted column names, as the database reports them. */
async function shape(dialect: 'sqlite' | 'postgres') {
  const server = await startServer(dialect);
  try {
    // call_logs' daily partitions (PostgreSQL, schema call_log_parts) are its storage, not tables of their own.
    const tables = (await server.app.ctx.db.introspection.getTables()).filter((t) => t.schema !== 'call_log_parts');
    return Object.fromEntries(tables.map((t) => [t.name, t.columns.map((c) => c.name).sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  } finally {
    await server.close();
  }
}

describe('migrations', () => {
  it('give the same tables and columns on SQLite and PostgreSQL', async () => {
    const [sqlite, postgres] = [await shape('sqlite'), await shape('postgres')];
    expect(Object.keys(sqlite)).toContain('users');
    expect(postgres).toEqual(sqlite);
  });
});
