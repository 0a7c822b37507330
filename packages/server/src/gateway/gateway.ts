// The gateway's long-lived parts, made once per app: the config snapshot, the ledger, the rate
// limiter, the upstream connection pool and the upstreams' breakers and cool-downs (memory, or Redis
// shared by every instance), plus the few writes the hot path triggers (first use of a key,
// auto-disable), which run in the background and update the snapshot at once.
import type { FastifyBaseLogger } from 'fastify';
import { QuotaExpiresRule } from '@fastgate/core/entities/app-key';
import { Status } from '@fastgate/core/constants';
import { Ledger } from '../billing/ledger';
import type { LedgerStoreFactory } from '../billing/ledger-types';
import type { SqliteWriter } from '../billing/sqlite-writer';
import type { Ctx } from '../context';
import { createMemoryBreakers, createRedisBreakers } from '../breakers/index';
import { KeyHealth } from '../jobs/key-health';
import type { RateLimiter } from '../limits/types';
import { agentsFor, type Route } from './pick';
import { RefusalThrottle } from './refusal-throttle';
import { Snapshot, type SnapAppKey, type SnapGroup, type SnapModel } from './snapshot';
import { createUpstream, type Upstream } from './upstream';
import { UpstreamHealth } from './upstream-health';

export class Gateway {
  readonly snapshot: Snapshot;
  readonly ledger: Ledger;
  readonly limiter: RateLimiter;
  readonly upstream: Upstream;
  /** Auto-enable rules for keys disabled by their errors (jobs/key-health.ts). */
  readonly health: KeyHealth;
  /** Circuit breakers and cool-downs per key and agent (upstream-health.ts). */
  readonly breakers: UpstreamHealth;
  /** How many rows refused calls may add to the call log per key (refusal-throttle.ts). */
  readonly refusals = new RefusalThrottle();

  /** `ledgerStore`: where the ledger keeps balances and unwritten charges (memory, or Redis shared by every instance). */
  constructor(
    private readonly ctx: Ctx,
    ledgerStore: LedgerStoreFactory,
    /** SQLite with the memory store: the ledger's batches (and the statistics job) run off the event loop (billing/sqlite-writer.ts). */
    readonly sqliteWriter?: SqliteWriter,
  ) {
    this.snapshot = new Snapshot(ctx);
    // The snapshot holds the stored balances the ledger counts from.
    this.ledger = new Ledger(ctx, this.snapshot, ledgerStore, { writer: sqliteWriter });
    this.limiter = ctx.limiter;
    this.upstream = createUpstream(() => this.snapshot.sys.http);
    this.health = new KeyHealth(ctx, () => this.snapshot.sys.auto_enable_error);
    const store = ctx.redis ? createRedisBreakers(ctx.redis.client, { prefix: `${ctx.redis.prefix}br:`, log: ctx.log }) : createMemoryBreakers();
    this.breakers = new UpstreamHealth(store, this.snapshot, ctx.log);
  }

  async start(): Promise<void> {
    await this.snapshot.load();
    this.health.start();
  }

  async close(): Promise<void> {
    this.health.stop();
    this.snapshot.close();
    await this.ledger.close();
    await this.limiter.close();
    await this.breakers.store.close();
    await this.upstream.close();
  }

  /** A duration key's clock starts at its first call (docs/ORIGINAL-API.md §3.3 rule 2). */
  markFirstUse(key: SnapAppKey, now: number): void {
    if (key.quota_expires_rule !== QuotaExpiresRule.Duration || key.first_used_at) return;
    key.first_used_at = now;
    key.quota_expires_at = now + key.quota_expires_minutes * 60_000;
    void this.ctx.db
      .updateTable('app_keys')
      .set({ first_used_at: now, quota_expires_at: key.quota_expires_at })
      .where('id', '=', key.id)
      .where('first_used_at', 'is', null)
      .execute()
      // Other instances (Redis mode) learn the clock's start too; if one set it first, the row keeps that.
      .then(() => this.ctx.bus.publish({ entity: 'app_keys', op: 'update', ids: [key.id] }))
      .catch((err: unknown) => this.ctx.log.error({ err }, 'recording the first use of an app key failed'));
  }

  /** Takes a key out of rotation with the reason; an agent left without keys goes too (docs/ORIGINAL-GATEWAY.md §1.16). `log`: the request's, so the line carries its trace id. */
  autoDisable(route: Route, reason: string, log: FastifyBaseLogger = this.ctx.log): void {
    const { key, agent } = route;
    if (key.is_never_disable || key.status !== Status.Normal) return;
    key.status = Status.Disabled;
    key.is_auto_disabled = 1;
    key.auto_disabled_reason = reason.slice(0, 500);
    const now = Date.now();
    const db = this.ctx.db;
    const writes: Promise<unknown>[] = [
      db.updateTable('provider_keys').set({ status: Status.Disabled, is_auto_disabled: 1, auto_disabled_reason: key.auto_disabled_reason, updated_at: now }).where('id', '=', key.id).execute(),
    ];
    const ids = { keys: [key.id], agents: [] as string[] };
    if (agent && !agent.is_never_disable && agent.status === Status.Normal) {
      const left = (this.snapshot.agentKeys.get(agent.id) ?? []).some((k) => k.status === Status.Normal);
      if (!left) {
        agent.status = Status.Disabled;
        agent.is_auto_disabled = 1;
        agent.auto_disabled_reason = 'no available model agent key';
        writes.push(db.updateTable('model_agents').set({ status: Status.Disabled, is_auto_disabled: 1, auto_disabled_reason: agent.auto_disabled_reason, updated_at: now }).where('id', '=', agent.id).execute());
        ids.agents.push(agent.id);
      }
    }
    log.warn({ key: key.key_mask, agent: agent?.name, reason: key.auto_disabled_reason }, 'auto-disabled a provider key');
    void Promise.all(writes)
      .then(() => {
        this.ctx.bus.publish({ entity: 'provider_keys', op: 'update', ids: ids.keys });
        if (ids.agents.length) this.ctx.bus.publish({ entity: 'model_agents', op: 'update', ids: ids.agents });
      })
      .catch((err: unknown) => this.ctx.log.error({ err }, 'auto-disabling a key failed'));
  }

  /** Enabled keys a model can reach (for a retry budget of "every key once"). */
  candidateKeys(model: SnapModel, group: SnapGroup | null): number {
    const agents = agentsFor(this.snapshot, model, group);
    if (!agents) return (this.snapshot.directKeys.get(model.id) ?? []).filter((k) => k.status === Status.Normal).length;
    return agents.reduce((n, a) => n + (this.snapshot.agentKeys.get(a.id) ?? []).filter((k) => k.status === Status.Normal).length, 0);
  }
}
