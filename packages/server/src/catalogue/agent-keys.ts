// The keys typed into a model agent's `key` field (docs/ORIGINAL-API.md §3.6) are provider_keys rows bound to the
// agent through provider_keys.model_agents (the stored side of the key ⇄ agent link).
// On create/update each new key is sealed (security/api-keys.ts) and bound: a key already stored
// (same hash) is bound to this agent too; a new one becomes a row with the agent's corp and models.
// Keys already bound are kept by id (the edit form never holds their secrets). A bound key that is
// neither kept nor listed again is unbound. If it is then bound to no agent and is agents-only
// (usable only through agents — the default for keys typed into an agent), nothing can use it, so the
// row is deleted; a key that is also usable directly (is_agents_only off, e.g. made on the key page)
// stays as a plain model key. Keys are never logged.
import { Status } from '@fastgate/core/constants';
import { providerKeyResource } from '@fastgate/core/entities/provider-key';
import { flag, ids } from '@fastgate/core/resource';
import type { Kysely, Transaction } from 'kysely';
import type { Ctx } from '../context';
import type { Database, ModelAgentRow, ProviderKeyRow } from '../db/schema';
import { newId } from '../http/ids';
import { hashKey, sealKey } from '../security/api-keys';

/** The keys an agent should have: bound keys kept by id, and keys (plaintext) to add. */
export interface AgentKeyList {
  keep: readonly string[];
  add: readonly string[];
}

export interface AgentKeyFlags {
  is_agents_only: boolean;
  is_never_disable_key: boolean;
}

/** Keys bound to `agentId` (a textual pre-filter, then the parsed array decides). */
export async function boundKeys(db: Kysely<Database> | Transaction<Database>, agentIds: readonly string[]): Promise<ProviderKeyRow[]> {
  if (!agentIds.length) return [];
  const rows = await db
    .selectFrom('provider_keys')
    .selectAll()
    .where((eb) => eb.or(agentIds.map((id) => eb('model_agents', 'like', `%"${id.replace(/["\\%_]/g, '')}"%`))))
    .execute();
  const wanted = new Set(agentIds);
  return rows.filter((r) => ids.decode(r.model_agents).some((a) => wanted.has(a)));
}

/**
 * Makes the kept and added keys exactly the keys bound to `agent`; `null` = unbind all (agent deleted).
 * Returns the provider_keys ids written, for change events.
 */
export async function syncAgentKeys(ctx: Ctx, trx: Transaction<Database>, agent: ModelAgentRow, keys: AgentKeyList | null, flags: AgentKeyFlags): Promise<{ changed: string[]; created: string[]; deleted: string[] }> {
  const out = { changed: [] as string[], created: [] as string[], deleted: [] as string[] };
  const now = Date.now();
  const bound = await boundKeys(trx, [agent.id]);
  const keep = new Set(keys?.keep ?? []);
  const wanted = new Map((keys?.add ?? []).map((k) => [hashKey(k), k]));
  const flagValues = { is_agents_only: flag.encode(flags.is_agents_only), is_never_disable: flag.encode(flags.is_never_disable_key) };

  for (const row of bound) {
    const agents = ids.decode(row.model_agents);
    if (keep.has(row.id) || wanted.has(row.key_hash)) {
      // Keys only this agent uses follow its corp and models.
      const own = agents.length === 1 ? { corp: agent.corp, models: agent.models } : {};
      await trx.updateTable('provider_keys').set({ ...flagValues, ...own, updated_at: now }).where('id', '=', row.id).execute();
      out.changed.push(row.id);
      continue;
    }
    const rest = agents.filter((a) => a !== agent.id);
    if (!rest.length && flag.decode(row.is_agents_only)) {
      await trx.deleteFrom('provider_keys').where('id', '=', row.id).execute();
      out.deleted.push(row.id);
    } else {
      await trx.updateTable('provider_keys').set({ model_agents: JSON.stringify(rest), updated_at: now }).where('id', '=', row.id).execute();
      out.changed.push(row.id);
    }
  }

  const boundHashes = new Set(bound.map((r) => r.key_hash));
  const fresh = [...wanted].filter(([hash]) => !boundHashes.has(hash));
  const stored = fresh.length ? await trx.selectFrom('provider_keys').selectAll().where('key_hash', 'in', fresh.map(([h]) => h)).execute() : [];
  const byHash = new Map(stored.map((r) => [r.key_hash, r]));
  for (const [hash, key] of fresh) {
    const existing = byHash.get(hash);
    if (existing) {
      await trx.updateTable('provider_keys').set({ model_agents: JSON.stringify([...ids.decode(existing.model_agents), agent.id]), updated_at: now }).where('id', '=', existing.id).execute();
      out.changed.push(existing.id);
      continue;
    }
    const id = newId();
    // A new key has the agent's corp and models, the flags typed beside the keys, and the rest as a new key's defaults.
    const settings = providerKeyResource.encode({
      ...providerKeyResource.defaults(),
      corp: agent.corp,
      models: ids.decode(agent.models),
      model_agents: [agent.id],
      is_agents_only: flags.is_agents_only,
      is_never_disable: flags.is_never_disable_key,
      status: Status.Normal,
    });
    await trx
      .insertInto('provider_keys')
      .values({ id, ...sealKey(ctx.secrets, key), ...settings, created_at: now, updated_at: now })
      .execute();
    out.created.push(id);
  }
  return out;
}

export function publishKeyChanges(ctx: Ctx, r: { changed: string[]; created: string[]; deleted: string[] }): void {
  if (r.created.length) ctx.bus.publish({ entity: 'provider_keys', op: 'create', ids: r.created });
  if (r.changed.length) ctx.bus.publish({ entity: 'provider_keys', op: 'update', ids: r.changed });
  if (r.deleted.length) ctx.bus.publish({ entity: 'provider_keys', op: 'delete', ids: r.deleted });
}
