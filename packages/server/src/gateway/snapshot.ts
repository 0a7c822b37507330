// The gateway's in-memory view of everything it routes by (ARCHITECTURE: no database reads on the hot
// path). Loaded whole at start; a console write publishes a change event naming the table and ids, and
// only those rows are read again. JSON columns are parsed once here, never per request. The listener
// returns the refresh that applies the event, so the bus's publish (and the console answer that waits
// for it) resolves only once this view holds the write: read-your-writes on the instance that took it.
import { parseJson } from '@fastgate/core/resource';
import type { ModelQuotas } from '@fastgate/core/entities/model-quota';
import { modelResource, quotasColumn, type PresetConfig } from '@fastgate/core/entities/model';
import type { ForwardConfig, RateLimits } from '@fastgate/core/entities/catalogue';
import { corpResource } from '@fastgate/core/entities/corp';
import { modelAgentResource } from '@fastgate/core/entities/model-agent';
import { providerKeyResource } from '@fastgate/core/entities/provider-key';
import { appResource } from '@fastgate/core/entities/app';
import { appKeyResource } from '@fastgate/core/entities/app-key';
import { userResource } from '@fastgate/core/entities/user';
import { SYS_CONFIG_DEFAULTS, type SysConfig } from '@fastgate/core/sys-config';
import type { AccountRef, Balances, StoredBalance } from '../billing/ledger-types';
import { userIdOf, type ChangeEvent } from '../bus/index';
import type { Ctx } from '../context';
import type { AppKeyRow, AppRow, CorpRow, GroupRow, ModelAgentRow, ModelRow, ProviderKeyRow, UserRow } from '../db/schema';
import { groupRecord, type GroupRecord } from '../catalogue/groups';
import { levelRecord, type LevelRecord } from '../vip/rules';

/** What a resource's `decode` gives: its stored fields as the wire types them. */
type Decoded<R extends { decode: (row: never) => unknown }> = ReturnType<R['decode']>;

/** The user settings admission reads decoded; grants (groups, models) stay as stored, as catalogue/access.ts reads every account. */
type UserSettings = Omit<Decoded<typeof userResource>, 'groups' | 'models'>;
/** An account: its settings decoded, its rate limits parsed, without its password hash. */
export interface SnapUser extends Omit<UserRow, 'password_hash' | 'rate_limits' | keyof UserSettings>, UserSettings {
  rate_limits: Partial<RateLimits>;
}
/** An app: its fields decoded (the bound group and expiry are the row's `group_id` and epoch ms). */
export interface SnapApp extends Omit<AppRow, keyof Decoded<typeof appResource>>, Omit<Decoded<typeof appResource>, 'rate_limits'> {
  /** Always read back (its input may leave it out). */
  rate_limits: Partial<RateLimits>;
}
/** An app key, found by hash: its settings decoded, without its ciphertext. */
export interface SnapAppKey extends Omit<AppKeyRow, 'key_cipher' | keyof Decoded<typeof appKeyResource>>, Decoded<typeof appKeyResource> {}
/** A group as routing reads it: its decoded record, forwarding null when switched off, its models as a set for look-ups. */
export interface SnapGroup extends Omit<GroupRecord, 'forward_config'> {
  forward_config: ForwardConfig | null;
  modelIds: Set<string>;
}
/** A model as routing reads it: its decoded fields, with the preset and forward settings null when switched off. */
export interface SnapModel extends Omit<ReturnType<typeof modelResource.decode>, 'preset_config' | 'forward_config'>, Pick<ModelRow, 'id' | 'created_at' | 'updated_at'> {
  quotas: ModelQuotas;
  preset_config: PresetConfig | null;
  forward_config: ForwardConfig | null;
}
/** An agent as routing reads it: its row with the agent resource's fields decoded, its models as a set for look-ups. */
export interface SnapAgent extends Omit<ModelAgentRow, keyof Decoded<typeof modelAgentResource>>, Decoded<typeof modelAgentResource> {
  modelIds: Set<string>;
}
/** A provider key as routing reads it: its row with the key resource's fields decoded, and the key in clear. */
export interface SnapKey extends Omit<ProviderKeyRow, 'key_cipher' | keyof Decoded<typeof providerKeyResource>>, Decoded<typeof providerKeyResource> {
  /** Plain text, only in memory, never logged. */
  key: string;
  modelIds: Set<string>;
}
/** A corp with its fields decoded (routing reads its code, `/v1/models` its name). */
export interface SnapCorp extends Omit<CorpRow, keyof Decoded<typeof corpResource>>, Decoded<typeof corpResource> {}

/** A VIP level with its fields decoded (vip/rules.ts reads levels the same way from the database). */
export type SnapVip = LevelRecord;

type TableName = 'users' | 'apps' | 'app_keys' | 'groups' | 'models' | 'model_agents' | 'provider_keys' | 'corps' | 'sys_configs' | 'vip_levels';

export class Snapshot implements Balances {
  users = new Map<number, SnapUser>();
  apps = new Map<number, SnapApp>();
  /** By key hash. */
  appKeys = new Map<string, SnapAppKey>();
  groups = new Map<string, SnapGroup>();
  /** Every group, as one list replaced whenever groups reload: a new list says they may have changed. */
  groupList: readonly SnapGroup[] = [];
  models = new Map<string, SnapModel>();
  agents = new Map<string, SnapAgent>();
  keys = new Map<string, SnapKey>();
  corps = new Map<string, SnapCorp>();
  vipLevels = new Map<string, SnapVip>();
  sys: SysConfig = structuredClone(SYS_CONFIG_DEFAULTS);
  /** Model ids by exact `name` and by exact `model`, rebuilt when models change. */
  modelsByName = new Map<string, string[]>();
  /** Models whose name or model id contains `*`: regex catch-alls (docs/ORIGINAL-GATEWAY.md §1.3). */
  wildcardModels: { id: string; pattern: RegExp }[] = [];

  private pending = new Map<TableName, Set<string> | 'all'>();
  /** The refresh that will apply `pending`: scheduled, not yet reading. */
  private next: Promise<void> | undefined;
  private closed = false;
  private unsubscribe: (() => void) | undefined;
  /** Resolves when every change heard so far has been applied (never rejects). */
  settled: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: Ctx) {}

  async load(): Promise<void> {
    for (const t of ['users', 'apps', 'app_keys', 'groups', 'models', 'model_agents', 'provider_keys', 'corps', 'sys_configs', 'vip_levels'] as const) await this.reload(t, 'all');
    this.unsubscribe = this.ctx.bus.subscribe((e) => this.onChange(e));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
  }

  /** Queues the event's rows for the next refresh; resolves once that refresh has applied them. */
  private onChange(event: ChangeEvent): Promise<void> {
    const table = event.entity as TableName;
    const have = this.pending.get(table);
    if (have !== 'all') {
      const ids = have ?? new Set<string>();
      for (const id of event.ids) ids.add(id);
      this.pending.set(table, event.ids.length ? ids : 'all');
    }
    if (this.next) return this.next;
    // One refresh at a time, each after the one before: a slow read of a whole table finishing after a
    // newer read of some of its rows would otherwise put the older rows back. Events heard while one
    // runs (and those of the same tick: a batch operation publishes many) are read together by the next.
    const run = this.settled
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.next = undefined;
        const work = [...this.pending];
        this.pending.clear();
        if (this.closed) return;
        return Promise.all(work.map(([t, ids]) => this.reload(t, ids === 'all' ? 'all' : [...ids])));
      })
      .then(
        () => undefined,
        (err: unknown) => this.ctx.log.error({ err }, 'gateway snapshot refresh failed'),
      );
    this.next = run;
    this.settled = run;
    return run;
  }

  /** Reads `table` again, all of it or the rows with these ids (string ids; users and apps by their numeric id too). */
  async reload(table: TableName, ids: string[] | 'all'): Promise<void> {
    const db = this.ctx.db;
    const some = ids !== 'all';
    if (some && ids.length === 0) return;
    switch (table) {
      case 'users': {
        let q = db.selectFrom('users').selectAll();
        if (some) {
          // Row ids are digits too, but far outside user_id's integer column (PostgreSQL refuses the comparison).
          const userIds = ids.map(userIdOf).filter((n) => n !== undefined);
          q = q.where((eb) => eb.or([eb('id', 'in', ids), ...(userIds.length ? [eb('user_id', 'in', userIds)] : [])]));
        }
        const rows = await q.execute();
        if (!some) this.users.clear();
        else for (const [k, u] of this.users) if (ids.includes(u.id) || ids.includes(String(k))) this.users.delete(k);
        for (const { password_hash: _p, ...u } of rows) {
          const { groups: _g, models: _m, ...settings } = userResource.decode(u);
          this.users.set(u.user_id, { ...u, ...settings, rate_limits: parseJson<Partial<RateLimits>>(u.rate_limits, {}) });
        }
        return;
      }
      case 'apps': {
        let q = db.selectFrom('apps').selectAll();
        if (some) q = q.where('id', 'in', ids);
        const rows = await q.execute();
        if (!some) this.apps.clear();
        else for (const [k, a] of this.apps) if (ids.includes(a.id)) this.apps.delete(k);
        for (const r of rows) {
          const app = appResource.decode(r);
          this.apps.set(r.app_id, { ...r, ...app, rate_limits: app.rate_limits ?? {} });
        }
        return;
      }
      case 'app_keys': {
        let q = db.selectFrom('app_keys').selectAll();
        if (some) q = q.where('id', 'in', ids);
        const rows = await q.execute();
        if (!some) this.appKeys.clear();
        else for (const [k, a] of this.appKeys) if (ids.includes(a.id)) this.appKeys.delete(k);
        for (const { key_cipher: _c, ...r } of rows) {
          this.appKeys.set(r.key_hash, { ...r, ...appKeyResource.decode(r) });
        }
        return;
      }
      case 'groups':
        await this.reloadById('groups', ids, this.groups, (r: GroupRow): SnapGroup => {
          const g = groupRecord(r);
          return { ...g, forward_config: (g.is_enable_forward && g.forward_config) || null, modelIds: new Set(g.models) };
        });
        this.groupList = [...this.groups.values()];
        return;
      case 'models':
        await this.reloadById('models', ids, this.models, (r: ModelRow): SnapModel => {
          const m = modelResource.decode(r);
          return {
            ...m,
            id: r.id,
            created_at: r.created_at,
            updated_at: r.updated_at,
            quotas: quotasColumn.decode(r.quotas),
            preset_config: m.is_enable_preset_config ? m.preset_config : null,
            forward_config: (m.is_enable_forward && m.forward_config) || null,
          };
        });
        this.indexModels();
        return;
      case 'model_agents':
        await this.reloadById('model_agents', ids, this.agents, (r: ModelAgentRow): SnapAgent => {
          const a = modelAgentResource.decode(r);
          return { ...r, ...a, modelIds: new Set(a.models) };
        });
        this.indexAgents();
        return;
      case 'provider_keys':
        await this.reloadById('provider_keys', ids, this.keys, ({ key_cipher, ...r }: ProviderKeyRow): SnapKey => {
          const k = providerKeyResource.decode(r);
          return { ...r, ...k, key: this.ctx.secrets.decrypt(key_cipher), modelIds: new Set(k.models) };
        });
        this.indexKeys();
        return;
      case 'corps':
        return this.reloadById('corps', ids, this.corps, (r: CorpRow): SnapCorp => ({ ...r, ...corpResource.decode(r) }));
      case 'vip_levels':
        return this.reloadById('vip_levels', ids, this.vipLevels, levelRecord);
      case 'sys_configs': {
        const rows = await db.selectFrom('sys_configs').selectAll().execute();
        const sys = structuredClone(SYS_CONFIG_DEFAULTS) as unknown as Record<string, unknown>;
        for (const row of rows) sys[row.section] = { ...(sys[row.section] as object | undefined), ...parseJson<object>(row.value, {}) };
        this.sys = sys as unknown as SysConfig;
        return;
      }
    }
  }

  private async reloadById<R extends { id: string }, S>(table: 'groups' | 'models' | 'model_agents' | 'provider_keys' | 'corps' | 'vip_levels', ids: string[] | 'all', into: Map<string, S>, map: (row: R) => S): Promise<void> {
    let q = (this.ctx.db as any).selectFrom(table).selectAll();
    if (ids !== 'all') q = q.where('id', 'in', ids);
    const rows = (await q.execute()) as R[];
    if (ids === 'all') into.clear();
    else for (const id of ids) into.delete(id);
    for (const r of rows) into.set(r.id, map(r));
  }

  private indexModels(): void {
    const byName = new Map<string, string[]>();
    const wild: { id: string; pattern: RegExp }[] = [];
    const add = (k: string, id: string) => listIn(byName, k).push(id);
    for (const m of this.models.values()) {
      add(m.name, m.id);
      if (m.model !== m.name) add(m.model, m.id);
      for (const text of [m.name, m.model]) {
        if (!text.includes('*')) continue;
        try {
          wild.push({ id: m.id, pattern: new RegExp(text) });
        } catch {
          // Not a valid pattern: it can still match exactly by name.
        }
      }
    }
    this.modelsByName = byName;
    this.wildcardModels = wild;
  }

  private indexKeys(): void {
    const byAgent = new Map<string, SnapKey[]>();
    const direct = new Map<string, SnapKey[]>();
    for (const k of this.keys.values()) {
      for (const a of k.model_agents) listIn(byAgent, a).push(k);
      if (!k.is_agents_only) for (const m of k.modelIds) listIn(direct, m).push(k);
    }
    this.agentKeys = byAgent;
    this.directKeys = direct;
  }

  private indexAgents(): void {
    const byModel = new Map<string, SnapAgent[]>();
    for (const a of this.agents.values()) for (const m of a.modelIds) listIn(byModel, m).push(a);
    this.agentsByModel = byModel;
  }

  /** Agents serving a model, by model id, in the agents' order (any status: the picker filters). Read-only. */
  agentsByModel = new Map<string, SnapAgent[]>();

  /** Keys bound to an agent (any status: the picker filters). */
  agentKeys = new Map<string, SnapKey[]>();
  /** Keys usable without an agent, by model id (not agents-only). */
  directKeys = new Map<string, SnapKey[]>();

  // The ledger's `Balances` (billing/ledger-types.ts): the accounts' records here are what it counts from.
  stored(a: AccountRef): StoredBalance | undefined {
    if (a.kind === 'user' || a.kind === 'reseller') return this.users.get(a.id);
    if (a.kind === 'app') return this.apps.get(a.id);
    if (a.kind === 'app_key') return this.appKeys.get(a.hash);
    return this.groups.get(a.id);
  }

  userIdsOf(rowIds: ReadonlySet<string>): number[] {
    const out: number[] = [];
    for (const u of this.users.values()) if (rowIds.has(u.id)) out.push(u.user_id);
    return out;
  }

  appIdsOf(rowIds: ReadonlySet<string>): number[] {
    const out: number[] = [];
    for (const a of this.apps.values()) if (rowIds.has(a.id)) out.push(a.app_id);
    return out;
  }
}

/** The list under `key`, made empty on first use. */
function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
