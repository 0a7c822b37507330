// Key health, admin side (docs/ORIGINAL-GATEWAY.md §1.17): the auto-enable rules that put keys disabled by
// their errors (auth, quota, the configured texts) back on their cron. Transient errors no longer
// disable anything: they open a circuit breaker (gateway/upstream-health.ts), which a live probe closes.
// Runs in-process; with several instances each runs the rules (the writes are idempotent).
import { Status } from '@fastgate/core/constants';
import type { AutoEnableRule, AutoEnableSection } from '@fastgate/core/sys-config';
import { Cron } from 'croner';
import type { Ctx } from '../context';
import { cronZone } from '../zone';

export class KeyHealth {
  private jobs: Cron[] = [];
  private rulesJson = '';
  private stopped = false;

  constructor(
    private readonly ctx: Ctx,
    /** The rules as the gateway's snapshot holds them now. */
    private readonly rules: () => AutoEnableSection,
  ) {}

  start(): void {
    this.schedule();
    // Rules change with the system config: reschedule when it does.
    this.ctx.bus.subscribe((e) => {
      if (e.entity === 'sys_configs') setTimeout(() => this.schedule(), 50);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const j of this.jobs) j.stop();
    this.jobs = [];
  }

  private schedule(): void {
    const section = this.rules();
    const json = JSON.stringify(section);
    if (this.stopped || json === this.rulesJson) return;
    this.rulesJson = json;
    for (const j of this.jobs.splice(0)) j.stop();
    if (!section.open) return;
    for (const rule of section.enable_errors) {
      try {
        this.jobs.push(new Cron(rule.cron, { ...cronZone(this.ctx.config.timeZone), protect: true }, () => void this.enable(rule)));
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
