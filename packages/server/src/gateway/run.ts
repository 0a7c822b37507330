// One gateway call from admission to the last log row: admit → resolve → limit → reserve → attempts
// (pick → send → classify → retry / auto-disable / fallback) → settle or refund → logs. The endpoint
// handlers supply only how to send an attempt and relay its answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { capCompletion, type Budget } from '../billing/estimate';
import type { AccountRef, Reservation } from '../billing/ledger';
import { retryAfterSeconds, type AdmitResult, type LimitScope } from '../limits/types';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import type { UpstreamError } from '../providers/types';
import { admit, type Caller } from './admit';
import type { NewCallLog } from '../db/schema';
import { CallStatus, callLog, type Attempt, type Plan } from './call-log';
import { classify, retryBudget } from './classify';
import { GatewayError } from './errors';
import type { Gateway } from './gateway';
import { pick, type Route, type Tried } from './pick';
import { resolve, type Endpoint, type Resolution } from './resolve';
import { shieldMessage } from './shield';
import { smartTarget } from './smart-match';
import type { SnapModel, SnapVip } from './snapshot';
import { backoffMs, pause, type Report } from './upstream-health';
import type { ChatRequest } from '../providers/types';
import type { LineItem } from '@fastgate/core/entities/call-log';

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

export interface CallSpec {
  endpoint: Endpoint;
  /** The request path, for the log. */
  path: string;
  requested: string;
  stream: boolean;
  /** Chat-shaped body: enables forwarding and preset config. */
  chat?: ChatRequest;
  messages?: unknown;
  prompt?: string;
  /**
   * Upper bound of the cost, reserved before the first attempt. A chat-shaped call gives a Budget: a
   * balance that cannot pay for its whole completion budget holds what it has (down to the prompt's
   * cost) and the call's completion limit (`chat`) is lowered to what that pays for.
   */
  estimate(resolution: Resolution): number | Budget;
  attempt(ctx: AttemptContext): Promise<Finished | Failed>;
}

export interface AttemptContext {
  route: Route;
  plan: Plan;
  /** The model the attempt calls (forwarding and fallback may change it). */
  target: SnapModel;
  signal: AbortSignal;
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

function accountsOf(caller: Caller, resolution: Resolution): AccountRef[] {
  const { appKey, app, user, reseller } = caller;
  const out: AccountRef[] = [
    // An admin may exempt an account from its balance (users.is_limit_quota = 0); usage is still counted.
    { kind: 'user', id: user.user_id, limited: user.is_limit_quota !== 0 },
    { kind: 'app', id: app.app_id, limited: app.is_limit_quota === 1 },
    { kind: 'app_key', id: appKey.id, hash: appKey.key_hash, limited: appKey.is_limit_quota === 1 },
  ];
  if (reseller) out.push({ kind: 'reseller', id: reseller.user_id, limited: false });
  if (resolution.group) out.push({ kind: 'group', id: resolution.group.id, limited: resolution.group.is_limit_quota === 1 });
  return out;
}

/** Every level that carries limits: the key, its app, its user, the billing group, the user's VIP level. */
function limitScopes(caller: Caller, resolution: Resolution, vip?: SnapVip): LimitScope[] {
  const levels: [string, Partial<RateLimits> | undefined][] = [
    [`key:${caller.appKey.id}`, caller.appKey.rate_limits],
    [`app:${caller.app.app_id}`, caller.app.rate_limits],
    [`user:${caller.user.user_id}`, caller.user.rate_limits],
    [`group:${resolution.group?.id}`, resolution.group?.rate_limits],
    [`vip:${vip?.id}`, vip?.rate_limits],
  ];
  return levels.filter(([, l]) => l && Object.values(l).some((v) => Number(v) > 0)).map(([scope, limits]) => ({ scope, limits: limits! }));
}

/**
 * How long a call waits for other calls of the same balance to give back their holds when what is left
 * cannot pay for its prompt (or, while they run, its whole budget): a small balance takes turns rather
 * than refusing calls it can pay for one at a time.
 */
const RESERVE_WAIT_MS = 10_000;

const REFUSED_CODES: Record<AccountRef['kind'], string> = {
  user: 'insufficient_quota',
  reseller: 'insufficient_quota',
  app: 'app_quota_exhausted',
  app_key: 'key_quota_exhausted',
  group: 'group_quota_exhausted',
};

/** A request past admit → resolve → limit: who calls, what it resolved to, its limit scopes; nothing reserved yet. */
interface Admitted {
  traceId: string;
  reqTime: number;
  started: number;
  caller: Caller;
  resolution: Resolution;
  scopes: LimitScope[];
}

export interface AdmittedRequest extends Admitted {
  /** Un-counts the request from its windows (a refusal after admission); absent when nothing was counted. */
  release?: () => Promise<void>;
}

/** A call past admission and the quota it holds. */
export interface OpenedCall extends Admitted {
  /** The balances the reservation holds (and a settlement charges). */
  accounts: AccountRef[];
  reservation: Reservation;
}

/**
 * admit → resolve → limit: the checks every request passes, billed or not (/v1/messages/count_tokens
 * stops here). Throws the OpenAI-shaped refusal.
 */
export async function admitRequest(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: Pick<CallSpec, 'requested' | 'endpoint' | 'chat'>): Promise<AdmittedRequest> {
  const started = performance.now();
  const reqTime = Date.now();
  // The request's id (ops/logging.ts): every log line of the request carries it as trace_id.
  const traceId = request.id;
  reply.header('x-trace-id', traceId);
  const { snapshot, limiter } = gw;

  const caller = admit(snapshot, request, reqTime);
  const resolution = resolve(snapshot, caller, spec.requested, spec.endpoint, spec.chat, reqTime);
  // resolve() priced it: the group's discount, the VIP level's on top, never below a reseller's floor.
  const { vip } = caller;
  const scopes = limitScopes(caller, resolution, vip);
  const admitted: AdmitResult = scopes.length ? await limiter.admit(scopes, caller.ip, reqTime) : { ok: true };
  if (!admitted.ok) {
    throw new GatewayError(429, 'rate_limit_exceeded', `Rate limit reached (${admitted.limit} of ${admitted.scope.split(':')[0]}). Please retry later.`, 'rate_limit_error', retryAfterSeconds(admitted.retryAfterMs));
  }
  return { traceId, reqTime, started, caller, resolution, scopes, release: admitted.release };
}

/**
 * admit → resolve → limit → reserve, shared by every endpoint (async tasks too). Throws the
 * OpenAI-shaped refusal; on success the estimate is held until settled or refunded.
 */
export async function openCall(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: Pick<CallSpec, 'requested' | 'endpoint' | 'chat' | 'estimate'>): Promise<OpenedCall> {
  const { traceId, reqTime, started, caller, resolution, scopes, release } = await admitRequest(gw, request, reply, spec);
  const { ledger } = gw;
  const accounts = accountsOf(caller, resolution);
  let reservation: Awaited<ReturnType<typeof ledger.reserve>>;
  try {
    const budget = spec.estimate(resolution);
    const { quota, floor } = typeof budget === 'number' ? { quota: budget, floor: budget } : budget;
    reservation = await ledger.reserve(traceId, accounts, quota, { floor, waitMs: RESERVE_WAIT_MS });
    // Less than the whole budget held: the call may produce only what the hold pays for.
    if (typeof budget !== 'number' && spec.chat && !('refused' in reservation) && reservation.amount < quota) capCompletion(spec.chat, budget.fit(reservation.amount));
  } catch (err) {
    await release?.();
    throw err;
  }
  if ('refused' in reservation) {
    await release?.();
    const kind = reservation.refused.kind;
    throw new GatewayError(429, REFUSED_CODES[kind], kind === 'user' || kind === 'reseller' ? 'You exceeded your current quota, please recharge.' : `The quota of this ${kind.replace('_', ' ')} is used up.`, 'insufficient_quota');
  }
  gw.markFirstUse(caller.appKey, reqTime);
  return { traceId, reqTime, started, caller, resolution, scopes, accounts, reservation };
}

/** What every attempt of an opened call shares. */
export function planOf(call: OpenedCall, spec: Pick<CallSpec, 'path' | 'requested' | 'stream' | 'messages' | 'prompt'>): Plan {
  return {
    traceId: call.traceId,
    endpoint: spec.path,
    reqTime: call.reqTime,
    started: call.started,
    caller: call.caller,
    resolution: call.resolution,
    requested: spec.requested,
    stream: spec.stream,
    messages: spec.messages === undefined ? '' : JSON.stringify(spec.messages),
    prompt: spec.prompt ?? '',
  };
}

/**
 * Resolves with nothing once the answer is sent: Fastify must not send again (resolving with the reply
 * would make it try, and log FST_ERR_REP_ALREADY_SENT on every call).
 */
export async function runCall(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: CallSpec): Promise<void> {
  const call = await openCall(gw, request, reply, spec);
  const { traceId, caller, resolution, scopes, reservation } = call;
  const { snapshot, ledger, limiter } = gw;
  const plan = planOf(call, spec);
  const logs: NewCallLog[] = [];
  const abort = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) abort.abort();
  };
  request.raw.socket.once('close', onClose);
  // A client that left while its call waited for a hold (openCall) is not served: refunded below.
  if (request.raw.socket.destroyed) onClose();
  try {
    if (resolution.smart && spec.chat) {
      const target = await smartTarget(gw, plan, resolution.smart, spec.chat, logs, abort.signal);
      if (target) Object.assign(resolution, { target, forwarded: true });
    }
    // Settled by attempts() when the answer is ready, before its last bytes go out.
    const result = await attempts(gw, spec, plan, reply, abort.signal, logs, (outcome) => ledger.settle(reservation, outcome.quota, logs));
    if (result.kind === 'finished') {
      if (result.tokens > 0 && scopes.length) void limiter.addTokens(scopes, result.tokens);
      return;
    }
    ledger.refund(reservation, logs);
    const e = result.error;
    // The upstream's (or every cooling key's) retry-after reaches the client.
    const retryAfter = e.retryAfterMs === undefined ? undefined : retryAfterSeconds(e.retryAfterMs);
    throw new GatewayError(e.status >= 400 ? e.status : 502, e.code ?? 'upstream_error', shieldMessage(snapshot.sys, caller.user.role, e.message, traceId), e.type, retryAfter);
  } catch (err) {
    if (!reservation.settled) ledger.refund(reservation, logs);
    throw err;
  } finally {
    request.raw.socket.off('close', onClose);
  }
}

/** What a finished attempt says about its upstream's health: answered, broke midway, or nothing (the client left). */
function healthOf(outcome: Finished): Report {
  if (outcome.status === CallStatus.Success) return { kind: 'ok' };
  if (outcome.status === CallStatus.Failed) return { kind: 'fail', error: { status: 0, code: 'stream_interrupted', message: outcome.errMsg ?? 'the stream broke' } };
  return { kind: 'neutral' };
}

/** What an attempt counts as upstream (GET /metrics): the HTTP status it failed with (0 = no answer), or how a relayed answer ended. */
function attemptOutcome(outcome: Finished | Failed): number | 'aborted' | 'stream_broken' {
  if (outcome.kind === 'failed') return outcome.error.status;
  if (outcome.status === CallStatus.Aborted) return 'aborted';
  return outcome.status === CallStatus.Success ? 200 : 'stream_broken';
}

/**
 * The retry loop of §1.10 with the fallback agent, then the fallback model, each with a fresh budget.
 * `charge` settles the finished call (its logs are in `logs` by then); the caller that leaves it out
 * settles on its own.
 */
export async function attempts(
  gw: Gateway,
  spec: CallSpec,
  plan: Plan,
  reply: FastifyReply,
  signal: AbortSignal,
  logs: NewCallLog[],
  charge?: (outcome: Finished) => Promise<void>,
): Promise<Finished | Failed> {
  const { snapshot } = gw;
  const { resolution } = plan;
  const model = resolution.model;
  const passes: { target: SnapModel; agentId?: string }[] = [{ target: resolution.target }];
  if (model.is_enable_fallback) {
    const fb = model.fallback_config;
    if (fb.model_agent) passes.push({ target: resolution.target, agentId: fb.model_agent });
    const fbModel = fb.model ? snapshot.models.get(fb.model) : undefined;
    if (fbModel && fbModel.status === 1 && fbModel.id !== resolution.target.id) passes.push({ target: fbModel });
  }
  let last: Failed = { kind: 'failed', error: { status: 503, type: 'server_error', code: 'no_available_agent', message: 'No model agent is available for this model right now.' } };
  const sys = snapshot.sys;
  const metrics = reply.server.ctx.metrics;
  for (const pass of passes) {
    const tried: Tried = { agents: new Set(), keys: new Set() };
    let budget: number | undefined;
    /** Keys asked again in this pass, for the backoff. */
    let repeats = 0;
    for (let n = 0; ; n++) {
      let route: Route;
      /** Half-open probes this attempt holds (upstream-health.ts); its outcome decides them. */
      let probes: string[];
      const timeoutMs = (spec.stream ? sys.base.long_timeout : sys.base.short_timeout) * 1000;
      try {
        const only = pass.agentId ? snapshot.agents.get(pass.agentId) : undefined;
        if (pass.agentId && !only) break;
        // Keys cooling down or behind an open breaker are passed over; when that is all of them, the
        // error carries until when (retry-after).
        ({ route, probes } = await gw.breakers.pickClaimed(() => pick(snapshot, pass.target, resolution.group, plan.requested, tried, only, gw.breakers), timeoutMs + 5000));
      } catch (err) {
        if (err instanceof GatewayError) {
          last = { kind: 'failed', error: { status: err.status, type: err.type, code: err.code, message: err.message, retryAfterMs: err.retryAfter === undefined ? undefined : err.retryAfter * 1000 } };
          break;
        }
        throw err;
      }
      budget ??= retryBudget(sys.base.err_retry, gw.candidateKeys(pass.target, resolution.group));
      // A key asked a second time in this call is given a moment first (a fresh key is asked at once).
      if (tried.keys.has(route.key.id)) await pause(backoffMs(repeats++), signal);
      const attemptStarted = performance.now();
      let outcome: Finished | Failed;
      const seconds = () => (performance.now() - attemptStarted) / 1000;
      // The finished attempt's log, then the charge: once, when the attempt calls finish() or returns.
      let done: { outcome: Finished; charged: Promise<void> } | undefined;
      const settleWith = (o: Finished, entry: Attempt): Promise<void> => {
        logs.push(callLog(snapshot, plan, logs.length, entry));
        done = { outcome: o, charged: charge ? charge(o) : Promise.resolve() };
        return done.charged;
      };
      const finish = (o: Finished): Promise<void> =>
        done?.charged ??
        settleWith(o, {
          route,
          status: o.status,
          usage: o.usage,
          quota: o.quota,
          lineItems: o.lineItems,
          promptRatio: o.promptRatio,
          completionRatio: o.completionRatio,
          completion: o.completion,
          errMsg: o.errMsg,
          connMs: performance.now() - attemptStarted,
          retryCount: n,
        });
      try {
        outcome = await spec.attempt({ route, plan, target: pass.target, signal, timeoutMs, reply, finish });
      } catch (err) {
        if (done) {
          // Charged already; only the answer's tail failed.
          metrics.upstreamAttempt(route.family, attemptOutcome(done.outcome), seconds());
          void gw.breakers.report(route, healthOf(done.outcome), probes, reply.log);
          await done.charged;
          return done.outcome;
        }
        await gw.breakers.release(probes);
        if (signal.aborted) {
          metrics.upstreamAttempt(route.family, 'aborted', seconds());
          const aborted: Finished = { kind: 'finished', status: CallStatus.Aborted, quota: 0, tokens: 0 };
          await settleWith(aborted, { route, status: CallStatus.Aborted, errMsg: 'client closed the connection', retryCount: n });
          return aborted;
        }
        throw err;
      }
      metrics.upstreamAttempt(route.family, attemptOutcome(outcome), seconds());
      if (outcome.kind === 'finished') {
        void gw.breakers.report(route, healthOf(outcome), probes, reply.log);
        await finish(outcome);
        return done!.outcome;
      }
      last = outcome;
      const e = outcome.error;
      reply.log.warn({ family: route.family, agent: route.agent?.name, key: route.key.key_mask, status: e.status, code: e.code, attempt: n }, 'upstream attempt failed');
      tried.agents.add(route.agent?.id ?? '');
      tried.keys.add(route.key.id);
      const verdict = classify(outcome.error, sys);
      // Auth and quota errors disable the key with their reason; transient ones count against its
      // breaker and its agent's (and a 429 cools the key) before the next pick.
      if (verdict.disable) gw.autoDisable(route, outcome.error.message, reply.log);
      const transient = verdict.retry && !verdict.disable;
      // A 429 that did not say how long still tells the client (the key's cool-down).
      if (verdict.coolMs !== undefined && e.retryAfterMs === undefined) last = { kind: 'failed', error: { ...e, retryAfterMs: verdict.coolMs } };
      await gw.breakers.report(route, transient ? { kind: 'fail', coolMs: verdict.coolMs, error: { status: e.status, code: e.code ?? '', message: e.message } } : { kind: 'neutral' }, probes, reply.log);
      const again = verdict.retry && n < budget;
      logs.push(callLog(snapshot, plan, logs.length, { route, status: again || passes.length > 1 ? CallStatus.Retry : CallStatus.Failed, errMsg: outcome.error.message, retryCount: n }));
      if (!verdict.retry) return outcome;
      if (!again) break;
    }
  }
  const final = logs.at(-1);
  if (final && final.status === CallStatus.Retry) final.status = CallStatus.Failed;
  return last;
}
