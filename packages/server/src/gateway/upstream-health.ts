// The gateway's side of circuit breakers and cool-downs (issue 13), one breaker per provider key and
// per model agent (breakers/): picking asks `key()` / `agent()` synchronously from the local view; an
// attempt claims the half-open probes its route needs, then reports how it went. Transient failures
// (429, 5xx, timeouts) count against the breakers, a 429's retry-after cools the key; auth and quota
// errors still disable the key with their reason (Gateway.autoDisable), and say nothing here.
import type { FastifyBaseLogger } from 'fastify';
import { Status } from '@fastgate/core/constants';
import type { BaseSection } from '@fastgate/core/sys-config';
import { agentBreaker, availability, keyBreaker, type Availability, type BreakerSettings, type BreakerState, type BreakerStore, type LastError, type Outcome } from '../breakers/index';
import type { CallSignal } from './call-signal';
import { GatewayError } from './errors';
import type { Gate, Route } from './pick';
import type { Snapshot } from './snapshot';

/** The error-rate window (settings give the rate, the minimum calls and the cool-down). */
const WINDOW_MS = 60_000;

/** The probes of a route that needs none: shared, never changed. */
export const NO_PROBES: readonly string[] = Object.freeze([]);

function breakerSettings(base: Pick<BaseSection, 'breaker_error_rate' | 'breaker_min_calls' | 'breaker_cooldown'>): BreakerSettings {
  return { errorRatePct: base.breaker_error_rate, minCalls: base.breaker_min_calls, cooldownMs: base.breaker_cooldown * 1000, windowMs: WINDOW_MS };
}

/**
 * Before asking a key a second time in one call: exponential from 100 ms (the `repeat`-th time), up to
 * 2 s, with full jitter over its upper half, so retries of many calls do not arrive together.
 */
export function backoffMs(repeat: number, random = Math.random): number {
  const ceiling = Math.min(2000, 100 * 2 ** repeat);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Waits `ms`, or less when the client leaves. */
export function pause(ms: number, signal: CallSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = {
      callAborted() {
        clearTimeout(timer);
        signal.offAbort(listener);
        resolve();
      },
    };
    const timer = setTimeout(() => listener.callAborted(), ms);
    signal.onAbort(listener);
  });
}

export interface Report {
  kind: Outcome['kind'];
  coolMs?: number;
  error?: Omit<LastError, 'at'>;
}

export class UpstreamHealth implements Gate {
  constructor(
    readonly store: BreakerStore,
    private readonly snapshot: Snapshot,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The settings of the snapshot's current base section (a reload replaces the section, never edits it). */
  private made: { base: BaseSection; settings: BreakerSettings } | undefined;

  settings(): BreakerSettings {
    const { base } = this.snapshot.sys;
    if (this.made?.base !== base) this.made = { base, settings: breakerSettings(base) };
    return this.made.settings;
  }

  key(id: string, now: number): Availability {
    return availability(this.store.view(keyBreaker(id)), now);
  }

  agent(id: string, now: number): Availability {
    return availability(this.store.view(agentBreaker(id)), now);
  }

  /**
   * Claims the probes a route needs for `leaseMs`. Returns the probes now held (the attempt reports
   * them), or null when another request holds one: the route is not used, and what was claimed goes back.
   */
  async claim(probes: readonly string[], leaseMs: number): Promise<string[] | null> {
    const held: string[] = [];
    for (const id of probes) {
      const claim = await this.store.claim(id, leaseMs);
      if (claim === 'probe') held.push(id);
      else if (claim === 'busy') {
        await this.release(held);
        return null;
      }
    }
    return held;
  }

  /**
   * Claims the half-open probes of `first`, a route just picked that needs some, picking again (`pickOnce`) until
   * a route's probes are claimed: a breaker whose probe another request took is held back by the view the claim
   * updated, so the next pick passes it over. (A route that needs none is the caller's at once: attempt.ts.)
   */
  async claimPicked(first: Route, pickOnce: () => Route, leaseMs: number): Promise<{ route: Route; probes: readonly string[] }> {
    let route = first;
    // Twenty routes at most, the first included: no pick made after the last.
    for (let i = 1; ; i++) {
      if (!route.probes.length) return { route, probes: NO_PROBES };
      const probes = await this.claim(route.probes, leaseMs);
      if (probes) return { route, probes };
      if (i === 20) break;
      route = pickOnce();
    }
    throw new GatewayError(503, 'no_available_key', 'No key is available for this model right now.', 'server_error', 1);
  }

  /** Gives back probes an attempt held but did not use (or whose outcome says nothing). */
  async release(probes: readonly string[]): Promise<void> {
    const s = this.settings();
    await Promise.all(probes.map((id) => this.store.record(id, { kind: 'neutral', probe: true }, s)));
  }

  /**
   * One attempt's outcome, to its key's and its agent's breakers. The cool-down is the key's alone, and
   * an agent opens only on failures of two of its keys (or its only one): a single bad key is its own
   * breaker's business, the agent's is an endpoint failing as a whole.
   */
  report(route: Route, r: Report, probes: readonly string[], log: FastifyBaseLogger = this.log): Promise<void> | undefined {
    const s = this.settings();
    const now = Date.now();
    const { key, agent } = route;
    const keyId = keyBreaker(key.id);
    const keyDone = this.record(keyId, { kind: r.kind, probe: probes.includes(keyId), hold: key.is_never_disable, coolMs: r.coolMs, error: r.error }, s, now, route, r, log);
    if (!agent) return keyDone;
    const keys = r.kind === 'fail' ? (this.snapshot.agentKeys.get(agent.id) ?? []).filter((k) => k.status === Status.Normal).length : 0;
    const agentId = agentBreaker(agent.id);
    const outcome: Outcome = { kind: r.kind, probe: probes.includes(agentId), hold: agent.is_never_disable, error: r.error, key: key.id, keysNeeded: Math.max(1, Math.min(2, keys)) };
    const agentDone = this.record(agentId, outcome, s, now, route, r, log);
    return keyDone || agentDone ? Promise.all([keyDone, agentDone]).then(() => undefined) : undefined;
  }

  /**
   * One breaker's outcome, and a log line when that changes its state. Synchronous when the store counts
   * it at once (a success, every call): no promise a call for each of its two breakers.
   */
  private record(id: string, outcome: Outcome, s: BreakerSettings, now: number, route: Route, r: Report, log: FastifyBaseLogger): Promise<void> | undefined {
    const before = this.store.view(id)?.state ?? 'closed';
    const written = this.store.record(id, outcome, s, now);
    if (written) return written.then(() => this.logChange(id, before, route, r, log));
    this.logChange(id, before, route, r, log);
    return undefined;
  }

  private logChange(id: string, before: BreakerState, route: Route, r: Report, log: FastifyBaseLogger): void {
    const after = this.store.view(id)?.state ?? 'closed';
    if (after === 'open' && before !== 'open') log.warn({ breaker: id, agent: route.agent?.name, key: route.key.key_mask, status: r.error?.status }, 'circuit breaker opened');
    else if (after === 'closed' && before !== 'closed') log.info({ breaker: id, agent: route.agent?.name, key: route.key.key_mask }, 'circuit breaker closed');
  }
}
