// The attempts of one opened call (docs/ORIGINAL-GATEWAY.md §1.10, retries and fallback): claim a
// route → send → settle; after a failure, count it against its key and decide what comes next: another
// key of the same pass while the pass's retry budget lasts, then the model's fallback agent, then its
// fallback model, each pass with a fresh budget. The endpoint gives only `send` (one attempt to its
// upstream, and the answer relayed); the breakers' probes, the backoff before asking a key again, the
// metrics, auto-disabling, every attempt's call log and the finished attempt's charge are all here.
import type { FastifyReply } from 'fastify';
import { LogStatus, type LineItem } from '@fastgate/core/entities/call-log';
import type { SysConfig } from '@fastgate/core/sys-config';
import type { Reservation } from '../billing/ledger-types';
import type { NewCallLog } from '../db/schema';
import type { Metrics } from '../ops/metrics';
import type { UpstreamError } from '../providers/types';
import { callLog, type Attempt, type Plan } from './call-log';
import type { CallSignal } from './call-signal';
import { classify, retryBudget, type Verdict } from './classify';
import { GatewayError } from './errors';
import type { Gateway } from './gateway';
import { pick, Tried, type Route } from './pick';
import type { SnapModel } from './snapshot';
import { backoffMs, NO_PROBES, pause, type Report } from './upstream-health';

/** An attempt that reached a conclusion the client has seen (or will see) — no more retries. */
export interface Finished {
  kind: 'finished';
  status: number;
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  quota: number;
  /** What the quota is made of (billing/price.ts), for the call log. */
  lineItems?: readonly LineItem[];
  promptRatio?: number;
  completionRatio?: number;
  completion?: string;
  errMsg?: string;
  /** Tokens for the rate limiter's token windows. */
  tokens: number;
}

/** An attempt that failed before anything reached the client: it may be retried. */
export interface Failed {
  kind: 'failed';
  error: UpstreamError;
}

export interface AttemptContext {
  route: Route;
  plan: Plan;
  /** The model the attempt calls (forwarding and fallback may change it). */
  target: SnapModel;
  signal: CallSignal;
  timeoutMs: number;
  reply: FastifyReply;
  /**
   * Charges the call before the end of its answer goes out: an attempt calls it with its outcome right
   * before the last write (a JSON answer, a stream's closing event) and returns that outcome. Once it
   * resolves, the charge and the call logs are in the ledger's store (in Redis mode the shared journal),
   * so an instance killed just after answering cannot lose a charge its client saw. Later calls
   * return the first one's promise; an attempt that never calls it is charged after it returns.
   */
  finish(outcome: Finished): Promise<void>;
}

/** One attempt to the upstream and its answer relayed: the endpoint's part of a call. */
export type Send = (ctx: AttemptContext) => Promise<Finished | Failed>;

/** Whose `attempt` sends each attempt (a call's spec, run.ts CallSpec), called as its method. */
export interface Sender {
  attempt: Send;
}

/** What the attempts of one call share (run.ts `openCall` sets it up). */
export interface AttemptScope {
  plan: Plan;
  reply: FastifyReply;
  /** Aborted when the client leaves. */
  signal: CallSignal;
  /** The call's logs so far (a smart-match decision's); every attempt adds its own. */
  logs: NewCallLog[];
}

/** A route picked for an attempt and the half-open probes it claimed. */
interface Claimed {
  route: Route;
  probes: readonly string[];
}

/** Where a pass's attempts go: the target by any of its routes, or by the fallback agent only. */
interface Pass {
  target: SnapModel;
  agentId?: string;
}

/**
 * One attempt under way, and the context its endpoint's `send` is given: one object an attempt (it was two,
 * and a closure for `finish`, each held by every call in flight; docs/BENCHMARKS.md, thirtieth session).
 */
class Try implements AttemptContext {
  readonly plan: Plan;
  readonly signal: CallSignal;
  readonly reply: FastifyReply;
  readonly timeoutMs: number;
  readonly started = performance.now();
  /** Set once the attempt is logged and charged (by `finish()` or when it returns), which happens once. */
  done?: { outcome: Finished; charged: Promise<void> };

  constructor(
    private readonly attempts: CallAttempts,
    readonly route: Route,
    /** Half-open probes the attempt holds (upstream-health.ts); its outcome decides them. */
    readonly probes: readonly string[],
    /** Its number in the pass: the call log's retry count. */
    readonly n: number,
    readonly target: SnapModel,
    scope: AttemptScope,
    timeoutMs: number,
  ) {
    this.plan = scope.plan;
    this.signal = scope.signal;
    this.reply = scope.reply;
    this.timeoutMs = timeoutMs;
  }

  finish(outcome: Finished): Promise<void> {
    return this.attempts.finish(this, outcome);
  }
}

/** What a finished attempt says about its upstream's health: answered, broke midway, or nothing (the client left). */
function healthOf(outcome: Finished): Report {
  if (outcome.status === LogStatus.Success) return { kind: 'ok' };
  if (outcome.status === LogStatus.Failed) return { kind: 'fail', error: { status: 0, code: 'stream_interrupted', message: outcome.errMsg ?? 'the stream broke' } };
  return { kind: 'neutral' };
}

/** What an attempt counts as upstream (GET /metrics): the HTTP status it failed with (0 = no answer), or how a relayed answer ended. */
function metricOf(outcome: Finished | Failed): number | 'aborted' | 'stream_broken' {
  if (outcome.kind === 'failed') return outcome.error.status;
  if (outcome.status === LogStatus.Aborted) return 'aborted';
  return outcome.status === LogStatus.Success ? 200 : 'stream_broken';
}

/** Why a pass found no route to pick, as the failure the client hears (with its retry-after). */
function unpicked(err: GatewayError): Failed {
  return { kind: 'failed', error: { status: err.status, type: err.type, code: err.code, message: err.message, retryAfterMs: err.retryAfter === undefined ? undefined : err.retryAfter * 1000 } };
}

/** Nothing could be picked: shared, never changed (a failure with a retry-after is a new object). */
const NO_ROUTE: Failed = Object.freeze({ kind: 'failed', error: Object.freeze({ status: 503, type: 'server_error', code: 'no_available_agent', message: 'No model agent is available for this model right now.' }) });

const seconds = (t: Try) => (performance.now() - t.started) / 1000;

export class CallAttempts {
  /** What the client hears when no attempt finishes: the latest failure (before any, that nothing could be picked). */
  private last: Failed = NO_ROUTE;
  private readonly passes: Pass[];
  /** The system config when the call started: one call keeps its timeouts and retry rules throughout. */
  private readonly sys: SysConfig;
  private readonly timeoutMs: number;
  private readonly metrics: Metrics;

  /**
   * A finished attempt settles `reservation` at its outcome's quota, with the call's logs (`scope.logs` by
   * then); a caller that gives none settles on its own (an async task, when its row is written).
   */
  constructor(
    private readonly gw: Gateway,
    private readonly scope: AttemptScope,
    private readonly endpoint: Sender,
    private readonly reservation?: Reservation,
  ) {
    this.sys = gw.snapshot.sys;
    this.metrics = scope.reply.server.ctx.metrics;
    this.timeoutMs = (scope.plan.stream ? this.sys.base.long_timeout : this.sys.base.short_timeout) * 1000;
    this.passes = this.fallbackPasses();
  }

  /** The resolved target first; with fallback on, the model's fallback agent, then its fallback model (when it is enabled and another model). */
  private fallbackPasses(): Pass[] {
    const { resolution } = this.scope.plan;
    const passes: Pass[] = [{ target: resolution.target }];
    if (!resolution.model.is_enable_fallback) return passes;
    const fb = resolution.model.fallback_config;
    if (fb.model_agent) passes.push({ target: resolution.target, agentId: fb.model_agent });
    const fbModel = fb.model ? this.gw.snapshot.models.get(fb.model) : undefined;
    if (fbModel && fbModel.status === 1 && fbModel.id !== resolution.target.id) passes.push({ target: fbModel });
    return passes;
  }

  async run(): Promise<Finished | Failed> {
    // By index: an array iterator would be one more object held while the attempt waits.
    for (let p = 0; p < this.passes.length; p++) {
      const pass = this.passes[p]!;
      const tried = new Tried();
      let budget: number | undefined;
      /** Keys asked again in this pass, for the backoff. */
      let repeats = 0;
      for (let n = 0; ; n++) {
        let claimed: Claimed;
        try {
          const claiming = this.claimRoute(pass, tried);
          if (!claiming) break;
          claimed = claiming instanceof Promise ? await claiming : claiming;
        } catch (err) {
          if (!(err instanceof GatewayError)) throw err;
          this.last = unpicked(err);
          break;
        }
        budget ??= retryBudget(this.sys.base.err_retry, this.gw.candidateKeys(pass.target, this.scope.plan.resolution.group));
        // A key asked a second time in this call is given a moment first (a fresh key is asked at once).
        if (tried.keys.has(claimed.route.key.id)) await pause(backoffMs(repeats++), this.scope.signal);
        const attempt = new Try(this, claimed.route, claimed.probes, n, pass.target, this.scope, this.timeoutMs);
        let outcome: Finished | Failed;
        try {
          outcome = await this.endpoint.attempt(attempt);
        } catch (err) {
          return this.thrown(attempt, err);
        }
        this.metrics.upstreamAttempt(attempt.route.family, metricOf(outcome), seconds(attempt));
        if (outcome.kind === 'finished') {
          void this.gw.breakers.report(attempt.route, healthOf(outcome), attempt.probes, this.scope.reply.log);
          await this.finish(attempt, outcome);
          return attempt.done!.outcome;
        }
        // Failed before anything reached the client: the retry / fallback decision.
        const verdict = await this.countFailure(attempt, outcome, tried);
        const again = verdict.retry && n < budget;
        this.logFailure(attempt, outcome, again);
        // No other key would answer differently (a bad request, say): the client hears this one.
        if (!verdict.retry) return outcome;
        // The pass's budget is spent: on to the next pass.
        if (!again) break;
      }
    }
    return this.giveUp();
  }

  /**
   * Picks the pass's next route and claims the half-open probes it needs. Keys cooling down or behind an
   * open breaker are passed over; when that is all of them, the GatewayError thrown says until when.
   * Nothing when the pass's fallback agent is gone.
   */
  private claimRoute(pass: Pass, tried: Tried): Claimed | Promise<Claimed> | undefined {
    const { snapshot, breakers } = this.gw;
    const { resolution, requested } = this.scope.plan;
    const only = pass.agentId ? snapshot.agents.get(pass.agentId) : undefined;
    if (pass.agentId && !only) return undefined;
    const route = pick(snapshot, pass.target, resolution.group, requested, tried, only, breakers);
    // Most routes need no half-open probe: theirs at once, with no promise to wait for (nor a closure to pick again).
    if (!route.probes.length) return { route, probes: NO_PROBES };
    return breakers.claimPicked(route, () => pick(snapshot, pass.target, resolution.group, requested, tried, only, breakers), this.timeoutMs + 5000);
  }

  /** The finished attempt's call log, then the call's charge: once, whether the attempt calls finish() or returns. */
  private settle(attempt: Try, outcome: Finished, entry: Attempt): Promise<void> {
    const { logs, plan } = this.scope;
    logs.push(callLog(this.gw.snapshot, plan, logs.length, entry));
    attempt.done = { outcome, charged: this.reservation ? this.gw.ledger.settle(this.reservation, outcome.quota, logs) : Promise.resolve() };
    return attempt.done.charged;
  }

  /** AttemptContext.finish (its Try calls it): logs the attempt with what it produced and charges the call (a second call returns the first charge). */
  finish(attempt: Try, o: Finished): Promise<void> {
    return (
      attempt.done?.charged ??
      this.settle(attempt, o, {
        route: attempt.route,
        status: o.status,
        usage: o.usage,
        quota: o.quota,
        lineItems: o.lineItems,
        promptRatio: o.promptRatio,
        completionRatio: o.completionRatio,
        completion: o.completion,
        errMsg: o.errMsg,
        connMs: performance.now() - attempt.started,
        retryCount: attempt.n,
      })
    );
  }

  /**
   * `send` threw. Already charged: only the answer's tail failed, the call stands. The client left: the
   * attempt ends aborted, logged and free. Anything else is the gateway's own error, thrown on.
   */
  private async thrown(attempt: Try, err: unknown): Promise<Finished> {
    const { route, probes, done } = attempt;
    if (done) {
      this.metrics.upstreamAttempt(route.family, metricOf(done.outcome), seconds(attempt));
      void this.gw.breakers.report(route, healthOf(done.outcome), probes, this.scope.reply.log);
      await done.charged;
      return done.outcome;
    }
    await this.gw.breakers.release(probes);
    if (!this.scope.signal.aborted) throw err;
    this.metrics.upstreamAttempt(route.family, 'aborted', seconds(attempt));
    const aborted: Finished = { kind: 'finished', status: LogStatus.Aborted, quota: 0, tokens: 0 };
    await this.settle(attempt, aborted, { route, status: LogStatus.Aborted, errMsg: 'client closed the connection', retryCount: attempt.n });
    return aborted;
  }

  /**
   * Counts a failed attempt against its key: the key and its agent are not picked again in this pass;
   * auth and quota errors disable the key with their reason; transient ones count against its breaker
   * and its agent's (and a 429 cools the key) before the next pick.
   */
  private async countFailure(attempt: Try, failed: Failed, tried: Tried): Promise<Verdict> {
    const { route, probes, n } = attempt;
    const e = failed.error;
    this.last = failed;
    this.scope.reply.log.warn({ family: route.family, agent: route.agent?.name, key: route.key.key_mask, status: e.status, code: e.code, attempt: n }, 'upstream attempt failed');
    tried.add(route);
    const verdict = classify(e, this.sys);
    if (verdict.disable) this.gw.autoDisable(route, e.message, this.scope.reply.log);
    const transient = verdict.retry && !verdict.disable;
    // A 429 that did not say how long still tells the client (the key's cool-down).
    if (verdict.coolMs !== undefined && e.retryAfterMs === undefined) this.last = { kind: 'failed', error: { ...e, retryAfterMs: verdict.coolMs } };
    await this.gw.breakers.report(route, transient ? { kind: 'fail', coolMs: verdict.coolMs, error: { status: e.status, code: e.code ?? '', message: e.message } } : { kind: 'neutral' }, probes, this.scope.reply.log);
    return verdict;
  }

  /** The failed attempt's call log: "retry" while another attempt or a fallback pass may follow (giveUp corrects the last one). */
  private logFailure(attempt: Try, failed: Failed, again: boolean): void {
    const { logs, plan } = this.scope;
    const status = again || this.passes.length > 1 ? LogStatus.Retry : LogStatus.Failed;
    logs.push(callLog(this.gw.snapshot, plan, logs.length, { route: attempt.route, status, errMsg: failed.error.message, retryCount: attempt.n }));
  }

  /** Every pass is spent: the last attempt's log says it failed, and the client hears the latest failure. */
  private giveUp(): Failed {
    const final = this.scope.logs.at(-1);
    if (final && final.status === LogStatus.Retry) final.status = LogStatus.Failed;
    return this.last;
  }
}
