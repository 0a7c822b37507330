// Catalogue fixtures for the app and key suites: written straight to the database, because models,
// agents and groups have their own API suites and these tests only need them to exist.
import type { Kysely } from 'kysely';
import type { TestServer } from './helpers';

export const CORP = 'c1';
/** Public: every account may use it. */
export const MODEL = 'm1';
/** Not public and not granted: users may not use it. */
export const PRIVATE_MODEL = 'm2';
/** A public admin group listing MODEL. */
export const GROUP = 'g1';
/** A non-public admin group nobody was granted. */
export const PRIVATE_GROUP = 'g2';
export const AGENT = 'a1';

export function rawDb(server: TestServer): Kysely<any> {
  return server.app.ctx.db as unknown as Kysely<any>;
}

export async function seedCatalogue(server: TestServer): Promise<void> {
  const db = rawDb(server);
  const now = Date.now();
  const stamp = { status: 1, created_at: now, updated_at: now };
  await db.insertInto('corps').values({ id: CORP, name: 'OpenAI', code: 'OpenAI', sort: 1, is_public: 1, ...stamp }).execute();
  await db
    .insertInto('models')
    .values([
      { id: MODEL, corp: CORP, name: 'GPT-4o', model: 'gpt-4o', type: 1, is_public: 1, ...stamp },
      { id: PRIVATE_MODEL, corp: CORP, name: 'Secret', model: 'secret', type: 1, is_public: 0, ...stamp },
    ])
    .execute();
  await db
    .insertInto('groups')
    .values([
      { id: GROUP, user_id: 0, name: 'Default', is_public: 1, discount_bp: 10000, weight: 1, models: JSON.stringify([MODEL]), ...stamp },
      { id: PRIVATE_GROUP, user_id: 0, name: 'VIP', is_public: 0, discount_bp: 8000, weight: 2, models: '[]', ...stamp },
    ])
    .execute();
  await db.insertInto('model_agents').values({ id: AGENT, corp: CORP, name: 'Agent One', ...stamp }).execute();
}

/** Change events seen on the bus from now on, as "entity:op". */
export function recordEvents(server: TestServer): { events: string[]; stop: () => void } {
  const events: string[] = [];
  const stop = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}`));
  return { events, stop };
}
