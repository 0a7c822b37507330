// Choosing where an attempt goes (docs/ORIGINAL-GATEWAY.md §1.6–§1.7): an agent (or the model's own endpoint),
// then a key inside it, skipping what is disabled, cooling down or behind an open breaker (issue 13:
// upstream-health.ts), and what already failed in this request, by round robin or smooth weighted
// round robin. Both strategies keep their state per candidate set, so concurrent requests spread
// evenly; JavaScript's single thread makes each pick atomic.
import { Status, type ProviderFamily } from '@fastgate/core/constants';
import { familyOfCorpCode } from '@fastgate/core/entities/corp';
import { LbStrategy } from '@fastgate/core/entities/catalogue';
import type { WireApi } from '@fastgate/core/entities/model-agent';
import { agentBreaker, availability, keyBreaker, type Availability } from '../breakers/index';
import { retryAfterSeconds } from '../limits/types';
import { keptWith } from '../memo';
import type { UpstreamTarget } from '../providers/types';
import { GatewayError } from './errors';
import type { SnapAgent, SnapGroup, SnapKey, SnapModel, Snapshot } from './snapshot';

export interface Route {
  agent: SnapAgent | null;
  key: SnapKey;
  family: ProviderFamily;
  /** The wire API the upstream speaks: the agent's, 'chat' for a model's own endpoint. */
  wire: WireApi;
  target: UpstreamTarget;
  /** Breakers (`key:<id>`, `agent:<id>`) whose half-open probe this attempt must claim before it goes. */
  probes: string[];
}

/** Whether a key or an agent may be asked now (upstream-health.ts); without one, everything may. */
export interface Gate {
  key(id: string, now: number): Availability;
  agent(id: string, now: number): Availability;
}

/** No breakers: everything may go, as a breaker never used. */
const OPEN_GATE: Gate = { key: (_id, now) => availability(undefined, now), agent: (_id, now) => availability(undefined, now) };

/** What the gate held back in one pick: the soonest moment something frees up, and whether all of it was cooling. */
class HeldBack {
  until = Infinity;
  cooling = true;
  /** The breakers (`breaker(id)`) of what was let through only as a half-open probe; made when there is one. */
  probing: Set<string> | undefined;

  /** Items the gate lets through now; notes the rest. */
  filter<T extends { id: string }>(items: T[], ask: (id: string) => Availability, breaker: (id: string) => string): T[] {
    return kept(items, (i) => {
      const a = ask(i.id);
      if (a.ok) {
        if (a.probe) (this.probing ??= new Set()).add(breaker(i.id));
        return true;
      }
      this.until = Math.min(this.until, a.until);
      this.cooling &&= a.cooling;
      return false;
    });
  }

  /** The probes a route through these must claim: those of `breakers` that were let through as one. */
  probesOf(...breakers: string[]): string[] {
    const probing = this.probing;
    return probing ? breakers.filter((b) => probing.has(b)) : [];
  }

  get any(): boolean {
    return this.until !== Infinity;
  }

  /** Every upstream key asked to wait → 429 with the soonest retry-after; open breakers → 503. */
  error(now: number, what: 'key' | 'agent'): GatewayError {
    const s = retryAfterSeconds(this.until - now);
    if (this.cooling) return new GatewayError(429, 'upstream_rate_limited', `Every upstream key of this model is rate limited; retry after ${s} s.`, 'rate_limit_error', s);
    return what === 'agent'
      ? new GatewayError(503, 'no_available_agent', `No model agent is available for this model right now; retry after ${s} s.`, 'server_error', s)
      : new GatewayError(503, 'no_available_key', `No key is available for this model right now; retry after ${s} s.`, 'server_error', s);
  }
}

const NONE: ReadonlySet<string> = new Set();

/**
 * `items.filter(keep)`, but `items` itself when every item is kept: the candidates of a call are nearly
 * always all enabled and all let through, and each pick filtered them into new lists four times.
 */
function kept<T>(items: T[], keep: (item: T) => boolean): T[] {
  for (let i = 0; i < items.length; i++) {
    if (keep(items[i]!)) continue;
    const out = items.slice(0, i);
    for (let j = i + 1; j < items.length; j++) if (keep(items[j]!)) out.push(items[j]!);
    return out;
  }
  return items;
}

/** What already failed in this request: skipped while something else is left. Its sets are made at the first failure. */
export class Tried {
  private failedAgents: Set<string> | undefined;
  private failedKeys: Set<string> | undefined;

  get agents(): ReadonlySet<string> {
    return this.failedAgents ?? NONE;
  }

  get keys(): ReadonlySet<string> {
    return this.failedKeys ?? NONE;
  }

  /** A route that failed: its agent ('' for a model's own endpoint) and its key. */
  add(route: Pick<Route, 'agent' | 'key'>): void {
    (this.failedAgents ??= new Set()).add(route.agent?.id ?? '');
    (this.failedKeys ??= new Set()).add(route.key.id);
  }
}

const counters = new Map<string, number>();
const weights = new Map<string, Map<string, number>>();

/**
 * The names of the candidate sets, kept with the snapshot objects they are made of (a reload makes new
 * objects, whose names come out the same): a name built for every pick was hashed anew by each look-up.
 */
const agentSetsOf = keptWith((_model: SnapModel) => new Map<SnapGroup | null, string>());
const keySetOf = keptWith((agent: SnapAgent) => `keys:${agent.id}`);
const directSetOf = keptWith((model: SnapModel) => `direct:${model.id}`);

function agentSetOf(model: SnapModel, group: SnapGroup | null): string {
  const byGroup = agentSetsOf(model);
  let name = byGroup.get(group);
  if (name === undefined) byGroup.set(group, (name = `agents:${group?.id ?? ''}:${model.id}`));
  return name;
}

/** Nginx's smooth weighted round robin: even spreading without bursts on the heaviest. */
function smoothWeighted<T extends { id: string; weight: number }>(setKey: string, items: T[]): T {
  let state = weights.get(setKey);
  if (!state) weights.set(setKey, (state = new Map()));
  let total = 0;
  let best: T | undefined;
  let bestScore = -Infinity;
  for (const item of items) {
    const w = Math.max(1, item.weight);
    total += w;
    const score = (state.get(item.id) ?? 0) + w;
    state.set(item.id, score);
    if (score > bestScore) {
      bestScore = score;
      best = item;
    }
  }
  state.set(best!.id, bestScore - total);
  return best!;
}

function roundRobin<T>(setKey: string, items: T[]): T {
  const n = counters.get(setKey) ?? 0;
  counters.set(setKey, n + 1);
  return items[n % items.length]!;
}

function choose<T extends { id: string; weight: number }>(strategy: number, setKey: string, items: T[]): T {
  return strategy === LbStrategy.Weight ? smoothWeighted(setKey, items) : roundRobin(setKey, items);
}

/** Prefer what has not failed yet; when everything has, try again from all. */
function untried<T extends { id: string }>(items: T[], tried: ReadonlySet<string>): T[] {
  if (!tried.size) return items;
  const fresh = items.filter((i) => !tried.has(i.id));
  return fresh.length ? fresh : items;
}

/** Candidate agents: the group's agents when it routes by agents, else the model's (agents listing it). */
export function agentsFor(snapshot: Snapshot, model: SnapModel, group: SnapGroup | null): SnapAgent[] | null {
  if (group?.is_enable_model_agent) {
    return group.model_agents.map((id) => snapshot.agents.get(id)).filter((a): a is SnapAgent => !!a && a.modelIds.has(model.id));
  }
  if (!model.is_enable_model_agent) return null;
  return snapshot.agentsByModel.get(model.id) ?? [];
}

function upstreamModel(model: SnapModel, requested: string, agent: SnapAgent | null): string {
  // A `*` record is a catch-all: the client's own string goes upstream (docs/ORIGINAL-GATEWAY.md §1.5).
  let name = model.model.includes('*') ? requested : model.model;
  if (agent?.is_enable_model_replace) {
    const i = agent.replace_models.indexOf(name);
    if (i >= 0 && agent.target_models[i]) name = agent.target_models[i]!;
  }
  return name;
}

/** The route through one agent (or the model's own endpoint) and one of its keys. */
export function routeFor(snapshot: Snapshot, model: SnapModel, requested: string, agent: SnapAgent | null, key: SnapKey, probes: string[] = []): Route {
  const corp = agent ? (snapshot.corps.get(agent.corp) ?? snapshot.corps.get(model.corp)) : (snapshot.corps.get(key.corp) ?? snapshot.corps.get(model.corp));
  return {
    agent,
    key,
    family: familyOfCorpCode(corp?.code ?? ''),
    wire: agent ? agent.wire_api : 'chat',
    target: agent
      ? { baseUrl: agent.base_url || model.base_url, path: agent.path || model.path, key: key.key, model: upstreamModel(model, requested, agent) }
      : { baseUrl: model.base_url, path: model.path, key: key.key, model: upstreamModel(model, requested, null) },
    probes,
  };
}

/**
 * Where the next attempt goes. `gate` holds back keys and agents that are cooling down or behind an
 * open breaker; when it holds back everything left, the error says until when (retry-after).
 */
export function pick(snapshot: Snapshot, model: SnapModel, group: SnapGroup | null, requested: string, tried: Tried, only?: SnapAgent, gate: Gate = OPEN_GATE, now = Date.now()): Route {
  const held = new HeldBack();
  const agents = only ? [only] : agentsFor(snapshot, model, group);
  if (agents) {
    const enabled = kept(agents, (a) => a.status === Status.Normal);
    if (!enabled.length) throw new GatewayError(503, 'no_available_agent', 'No model agent is available for this model right now.');
    let open = held.filter(enabled, (id) => gate.agent(id, now), agentBreaker);
    if (!open.length) throw held.error(now, 'agent');
    const strategy = group?.is_enable_model_agent ? group.lb_strategy : model.lb_strategy;
    let keyless = false;
    // An agent whose keys are all held back is passed over for the next one.
    while (open.length) {
      const agent = choose(strategy, agentSetOf(model, group), untried(open, tried.agents));
      const enabledKeys = kept(snapshot.agentKeys.get(agent.id) ?? [], (k) => k.status === Status.Normal);
      const keys = held.filter(enabledKeys, (id) => gate.key(id, now), keyBreaker);
      if (keys.length) {
        const key = choose(agent.lb_strategy, keySetOf(agent), untried(keys, tried.keys));
        return routeFor(snapshot, model, requested, agent, key, held.probesOf(agentBreaker(agent.id), keyBreaker(key.id)));
      }
      keyless ||= !enabledKeys.length;
      open = open.filter((a) => a !== agent);
    }
    if (held.any) throw held.error(now, 'key');
    throw new GatewayError(503, keyless ? 'no_available_key' : 'no_available_agent', keyless ? 'No key is available for this model right now.' : 'No model agent is available for this model right now.');
  }
  // No agents: the model's own endpoint with keys bound directly to the model.
  const keys = held.filter(
    kept(snapshot.directKeys.get(model.id) ?? [], (k) => k.status === Status.Normal),
    (id) => gate.key(id, now),
    keyBreaker,
  );
  if (!keys.length) throw held.any ? held.error(now, 'key') : new GatewayError(503, 'no_available_key', 'No key is available for this model right now.');
  const key = choose(LbStrategy.Weight, directSetOf(model), untried(keys, tried.keys));
  return routeFor(snapshot, model, requested, null, key, held.probesOf(keyBreaker(key.id)));
}
