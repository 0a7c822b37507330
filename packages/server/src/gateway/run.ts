// One gateway call from admission to the last log row: admit → resolve → limit → hold (reserve the
// estimate) → attempts (attempt.ts: pick → send → classify → retry / auto-disable / fallback) → settle
// or refund → logs. Every billed call runs between `openCall` and `closeCall` (runCall here; async task
// submission in tasks.ts through withOpenCall); the endpoint handlers supply only how to send an attempt and
// relay its answer.
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { capCompletion, type Budget } from '../billing/estimate';
import type { AccountRef, Reservation } from '../billing/ledger-types';
import { retryAfterSeconds, type AdmitResult, type LimitScope } from '../limits/types';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import type { ChatRequest, UpstreamError } from '../providers/types';
import { admit, type Caller } from './admit';
import { CallAttempts, type AttemptScope, type Send } from './attempt';
import { CallSignal } from './call-signal';
import type { Plan } from './call-log';
import { GatewayError } from './errors';
import { removeFrom } from '../lists';
import type { Gateway } from './gateway';
import { logRefusal, type RefusedSpec } from './refusal-log';
import { resolve, type Endpoint, type Resolution } from './resolve';
import { shieldMessage } from './shield';
import { smartTarget } from './smart-match';
import type { SnapVip } from './snapshot';

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
  attempt: Send;
}

function accountsOf(caller: Caller, resolution: Resolution): AccountRef[] {
  const { appKey, app, user, reseller } = caller;
  const out: AccountRef[] = [
    // An admin may exempt an account from its balance (users.is_limit_quota = 0); usage is still counted.
    { kind: 'user', id: user.user_id, limited: user.is_limit_quota },
    { kind: 'app', id: app.app_id, limited: app.is_limit_quota },
    { kind: 'app_key', id: appKey.id, hash: appKey.key_hash, limited: appKey.is_limit_quota },
  ];
  if (reseller) out.push({ kind: 'reseller', id: reseller.user_id, limited: false });
  if (resolution.group) out.push({ kind: 'group', id: resolution.group.id, limited: resolution.group.is_limit_quota });
  return out;
}

/** Every level that carries limits: the key, its app, its user, the billing group, the user's VIP level. */
function limitScopes(caller: Caller, resolution: Resolution, vip?: SnapVip): readonly LimitScope[] {
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
 * What a key's calls are charged to and limited by, as of the snapshot objects it is read from, kept while
 * those stand (a reload replaces an object whose row changed; the fields edited in place, balances and the
 * first-use stamp, are not read here): the same lists call after call, which the limiter plans once
 * (limits/windows.ts) and the ledger keys once (billing/ledger-types.ts accountKey).
 */
interface KeptCaller {
  app: Caller['app'];
  user: Caller['user'];
  reseller: Caller['reseller'];
  vip: Caller['vip'];
  group: Resolution['group'];
  accounts: readonly AccountRef[];
  scopes: readonly LimitScope[];
}
const keptCallers = new WeakMap<Caller['appKey'], KeptCaller>();

function keptCaller(caller: Caller, resolution: Resolution): KeptCaller {
  const { app, user, reseller, vip } = caller;
  const { group } = resolution;
  const kept = keptCallers.get(caller.appKey);
  if (kept && kept.app === app && kept.user === user && kept.reseller === reseller && kept.vip === vip && kept.group === group) return kept;
  const made = { app, user, reseller, vip, group, accounts: accountsOf(caller, resolution), scopes: limitScopes(caller, resolution, vip) };
  keptCallers.set(caller.appKey, made);
  return made;
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
  scopes: readonly LimitScope[];
}

export interface AdmittedRequest extends Admitted {
  /** The balances a hold takes from (kept with the scopes: keptCaller). */
  accounts: readonly AccountRef[];
  /** Un-counts the request from its windows (a refusal after admission); absent when nothing was counted. */
  release?: () => Promise<void>;
}

/**
 * admit → resolve → limit: the checks every request passes, billed or not (/v1/messages/count_tokens
 * stops here). Throws the OpenAI-shaped refusal; with `logged` (a billed call), a refusal after admit()
 * recognised the key is also written to the call log (refusal-log.ts).
 */
export async function admitRequest(gw: Gateway, request: FastifyRequest, spec: Pick<CallSpec, 'requested' | 'endpoint' | 'chat'>, logged?: RefusedSpec): Promise<AdmittedRequest> {
  const started = performance.now();
  const reqTime = Date.now();
  // The request's id (ops/logging.ts): every log line of the request carries it as trace_id, and the
  // answer as x-trace-id (ops/observe.ts sets it on every gateway request).
  const traceId = request.id;
  const { snapshot, limiter } = gw;

  // An unknown or disabled key, or one its lists or dates refuse, is not logged: admit() has no whole caller to log it under.
  const caller = admit(snapshot, request, reqTime);
  let resolution: Resolution | undefined;
  try {
    resolution = resolve(snapshot, caller, spec.requested, spec.endpoint, spec.chat, reqTime);
    // resolve() priced it: the group's discount, the VIP level's on top, never below a reseller's floor.
    const { scopes, accounts } = keptCaller(caller, resolution);
    const admitted: AdmitResult = scopes.length ? await limiter.admit(scopes, caller.ip, reqTime) : { ok: true };
    if (!admitted.ok) {
      throw new GatewayError(429, 'rate_limit_exceeded', `Rate limit reached (${admitted.limit} of ${admitted.scope.split(':')[0]}). Please retry later.`, 'rate_limit_error', retryAfterSeconds(admitted.retryAfterMs));
    }
    return { traceId, reqTime, started, caller, resolution, scopes, accounts, release: admitted.release };
  } catch (err) {
    if (logged && err instanceof GatewayError) logRefusal(gw, { traceId, reqTime, started, caller, resolution }, logged, err);
    throw err;
  }
}

/**
 * Holds the estimate on every balance the call is charged to, waiting a while for other calls' holds
 * when the balance is short; a chat call's budget may shrink to what the balance has, and its
 * completion limit with it. Throws the OpenAI-shaped refusal, un-counting the request from its windows.
 */
async function hold(gw: Gateway, admitted: AdmittedRequest, spec: Pick<CallSpec, 'chat' | 'estimate'> & RefusedSpec): Promise<Reservation> {
  const { traceId, caller, resolution, accounts, release } = admitted;
  const { ledger } = gw;
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
    const refusal = new GatewayError(429, REFUSED_CODES[kind], kind === 'user' || kind === 'reseller' ? 'You exceeded your current quota, please recharge.' : `The quota of this ${kind.replace('_', ' ')} is used up.`, 'insufficient_quota');
    logRefusal(gw, admitted, spec, refusal);
    throw refusal;
  }
  gw.markFirstUse(caller.appKey, admitted.reqTime);
  return reservation;
}

/** What every attempt of a call shares. */
function planOf(call: Admitted, spec: Pick<CallSpec, 'path' | 'requested' | 'stream' | 'messages' | 'prompt'>): Plan {
  return {
    traceId: call.traceId,
    endpoint: spec.path,
    reqTime: call.reqTime,
    started: call.started,
    caller: call.caller,
    resolution: call.resolution,
    requested: spec.requested,
    stream: spec.stream,
    messages: spec.messages,
    prompt: spec.prompt ?? '',
  };
}

/** A call that holds its estimate, while it runs: what its attempts share, and what it may be charged. */
export interface OpenCall extends Admitted, AttemptScope {
  /** The balances the reservation holds (and a settlement charges). */
  accounts: readonly AccountRef[];
  reservation: Reservation;
}

/**
 * Opens a billed call: admit → resolve → limit → hold, and its attempts aborted when its client leaves
 * (until `closeCall`).
 */
async function openCall(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: Omit<CallSpec, 'attempt'>): Promise<OpenCall> {
  const admitted = await admitRequest(gw, request, spec, spec);
  const reservation = await hold(gw, admitted, spec);
  const { traceId, reqTime, started, caller, resolution, scopes } = admitted;
  const call: OpenCall = { traceId, reqTime, started, caller, resolution, scopes, accounts: reservation.accounts, reservation, plan: planOf(admitted, spec), reply, signal: new CallSignal(), logs: [] };
  const socket = request.raw.socket;
  // A client that left while its call waited for a hold is not served: refunded by closeCall.
  if (socket.destroyed) abortUnanswered(call);
  openCallsOf(socket).push(call);
  return call;
}

/** A call's end: its hold, when nothing settled it (a failure, an error, the client gone), goes back with the attempts' logs. */
function closeCall(gw: Gateway, request: FastifyRequest, call: OpenCall): void {
  if (!call.reservation.settled) gw.ledger.refund(call.reservation, call.logs);
  const calls = openCalls.get(request.raw.socket);
  if (calls) removeFrom(calls, call);
}

/**
 * The frame every billed call runs in (an async task's submission; runCall is the same frame, written out):
 * open it, and close it when `run` ends, refunding the hold when `run` did not settle it. Settling is
 * `run`'s business.
 */
export async function withOpenCall<T>(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: Omit<CallSpec, 'attempt'>, run: (call: OpenCall) => Promise<T>): Promise<T> {
  const call = await openCall(gw, request, reply, spec);
  try {
    return await run(call);
  } finally {
    closeCall(gw, request, call);
  }
}

/** The client left: its call stops, unless its answer was already sent whole. */
function abortUnanswered(call: Pick<OpenCall, 'reply' | 'signal'>): void {
  if (!call.reply.raw.writableFinished) call.signal.abort();
}

/**
 * The calls open on each client connection, aborted when it closes: one 'close' listener a connection
 * (kept-alive, it carries call after call) instead of one added and removed a call. A list, not a Set
 * (lists.ts).
 */
const openCalls = new WeakMap<Socket, OpenCall[]>();

function openCallsOf(socket: Socket): OpenCall[] {
  let calls = openCalls.get(socket);
  if (!calls) {
    const open: OpenCall[] = (calls = []);
    openCalls.set(socket, open);
    socket.once('close', () => {
      // A copy: an aborted call may leave the list while it is walked.
      for (const call of [...open]) abortUnanswered(call);
    });
  }
  return calls;
}

/**
 * The OpenAI-shaped error of a call no attempt finished: the upstream's status (502 when it gave none)
 * and code, its message shielded from the caller where the system config says so (shield.ts).
 */
export function callFailure(gw: Gateway, call: Pick<Admitted, 'traceId' | 'caller'>, e: UpstreamError, retryAfter?: number): GatewayError {
  return new GatewayError(e.status >= 400 ? e.status : 502, e.code ?? 'upstream_error', shieldMessage(gw.snapshot.sys, call.caller.user.role, e.message, call.traceId), e.type, retryAfter);
}

/**
 * A billed call answered by its endpoint: smart forwarding, then the attempts, charged when the answer
 * is ready. Resolves with nothing once the answer is sent: Fastify must not send again (resolving with
 * the reply would make it try, and log FST_ERR_REP_ALREADY_SENT on every call).
 */
export async function runCall(gw: Gateway, request: FastifyRequest, reply: FastifyReply, spec: CallSpec): Promise<void> {
  // withOpenCall's frame written out, with no `run` closure or `async` frame of its own: every call in flight held both.
  const call = await openCall(gw, request, reply, spec);
  try {
    const { resolution, reservation, scopes, logs } = call;
    if (resolution.smart && spec.chat) {
      const target = await smartTarget(gw, call.plan, resolution.smart, spec.chat, logs, call.signal);
      if (target) Object.assign(resolution, { target, forwarded: true });
    }
    // Settled by the attempts when the answer is ready, before its last bytes go out.
    const result = await new CallAttempts(gw, call, spec, reservation).run();
    if (result.kind === 'finished') {
      if (result.tokens > 0 && scopes.length) void gw.limiter.addTokens(scopes, result.tokens);
      return;
    }
    const e = result.error;
    // The upstream's (or every cooling key's) retry-after reaches the client; closeCall refunds the hold.
    throw callFailure(gw, call, e, e.retryAfterMs === undefined ? undefined : retryAfterSeconds(e.retryAfterMs));
  } finally {
    closeCall(gw, request, call);
  }
}
