// Key health (gateway-semantics §1.16–§1.17): daily error counters that disable a key past the system
// config's threshold (reset at 0:00), and the auto-enable rules that put auto-disabled keys back on
// their cron. Both run in-process; with several instances each runs them (the writes are idempotent).
import { Status } from '@fastgate/core/constants';
import type { AutoEnableRule } from '@fastgate/core/sys-config';
import { Cron } from 'croner';
import type { Ctx } from '../context';
import type { Gateway } from '../gateway/gateway';

export class KeyHealth {
  private errors = new Map<string, number>();
  private jobs: Cron[] = [];
  private rulesJson = '';

  constructor(
    private readonly ctx: Ctx,
    private readonly gateway: Gateway,
  ) {}

  start(): void {
    this.jobs.push(new Cron('0 0 * * *', { timezone: this.ctx.config.timeZone }, () => this.errors.clear()));
    this.schedule();
    // Rules change with the system config: reschedule when it does.
    this.ctx.bus.subscribe((e) => {
      if (e.entity === 'sys_configs') setTimeout(() => this.schedule(), 50);
    });
  }

  stop(): void {
    for (const j of this.jobs) j.stop();
    this.jobs = [];
  }

  /** Counts one retryable error of a key; true when it crossed today's threshold. */
  count(keyId: string): boolean {
    const n = (this.errors.get(keyId) ?? 0) + 1;
    this.errors.set(keyId, n);
    const limit = this.gateway.snapshot.sys.base.model_key_err_disable;
    return limit > 0 && n >= limit;
  }

  private schedule(): void {
    const section = this.gateway.snapshot.sys.auto_enable_error;
    const json = JSON.stringify(section);
    if (json === this.rulesJson) return;
    this.rulesJson = json;
    for (const j of this.jobs.splice(1)) j.stop();
    if (!section.open) return;
    for (const rule of section.enable_errors) {
      try {
        this.jobs.push(new Cron(rule.cron, { timezone: this.ctx.config.timeZone, protect: true }, () => void this.enable(rule)));
      } catch (err) {
        this.ctx.log.warn({ cron: rule.cron, err: String(err) }, 'auto-enable rule has an invalid cron expression; skipped');
      }
    }
  }

  /** Puts back keys (and their agents) auto-disabled at least `enable_time` seconds ago for a matching reason. */
  async enable(rule: AutoEnableRule, now = Date.now()): Promise<number> {
    const db = this.ctx.db;
    let q = db.selectFrom('provider_keys').select(['id', 'model_agents']).where('is_auto_disabled', '=', 1).where('updated_at', '<=', now - rule.enable_time * 1000);
    if (rule.error) q = q.where('auto_disabled_reason', 'like', `%${rule.error.replace(/[%_\\]/g, '')}%`);
    const keys = await q.execute();
    if (!keys.length) return 0;
    const ids = keys.map((k) => k.id);
    await db.updateTable('provider_keys').set({ status: Status.Normal, is_auto_disabled: 0, auto_disabled_reason: '', updated_at: now }).where('id', 'in', ids).execute();
    const agentIds = [...new Set(keys.flatMap((k) => JSON.parse(k.model_agents || '[]') as string[]))];
    if (agentIds.length) {
      await db.updateTable('model_agents').set({ status: Status.Normal, is_auto_disabled: 0, auto_disabled_reason: '', updated_at: now }).where('id', 'in', agentIds).where('is_auto_disabled', '=', 1).execute();
      this.ctx.bus.publish({ entity: 'model_agents', op: 'update', ids: agentIds });
    }
    this.ctx.bus.publish({ entity: 'provider_keys', op: 'update', ids });
    this.ctx.log.info({ count: ids.length, rule: rule.error || '*' }, 'auto-enabled provider keys');
    return ids.length;
  }
}
