// Choosing where an attempt goes (gateway-semantics §1.6–§1.7): an agent (or the model's own endpoint),
// then a key inside it, skipping what is disabled or already failed in this request, by round robin
// or smooth weighted round robin. Both strategies keep their state per candidate set, so concurrent
// requests spread evenly; JavaScript's single thread makes each pick atomic.
import { familyOfCorpCode, Status, type ProviderFamily } from '@fastgate/core/constants';
import { LbStrategy } from '@fastgate/core/entities/catalogue';
import type { WireApi } from '@fastgate/core/entities/model-agent';
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
}

/** What already failed in this request: skipped while something else is left. */
export interface Tried {
  agents: Set<string>;
  keys: Set<string>;
}

const counters = new Map<string, number>();
const weights = new Map<string, Map<string, number>>();

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
function untried<T extends { id: string }>(items: T[], tried: Set<string>): T[] {
  const fresh = items.filter((i) => !tried.has(i.id));
  return fresh.length ? fresh : items;
}

/** Candidate agents: the group's agents when it routes by agents, else the model's (agents listing it). */
export function agentsFor(snapshot: Snapshot, model: SnapModel, group: SnapGroup | null): SnapAgent[] | null {
  if (group?.is_enable_model_agent) {
    return group.agentIds.map((id) => snapshot.agents.get(id)).filter((a): a is SnapAgent => !!a && a.modelIds.has(model.id));
  }
  if (!model.is_enable_model_agent) return null;
  return [...snapshot.agents.values()].filter((a) => a.modelIds.has(model.id));
}

function upstreamModel(model: SnapModel, requested: string, agent: SnapAgent | null): string {
  // A `*` record is a catch-all: the client's own string goes upstream (§1.5).
  let name = model.model.includes('*') ? requested : model.model;
  if (agent?.is_enable_model_replace) {
    const i = agent.replace_models.indexOf(name);
    if (i >= 0 && agent.target_models[i]) name = agent.target_models[i]!;
  }
  return name;
}

export function pick(snapshot: Snapshot, model: SnapModel, group: SnapGroup | null, requested: string, tried: Tried, only?: SnapAgent): Route {
  const agents = only ? [only] : agentsFor(snapshot, model, group);
  if (agents) {
    const enabled = agents.filter((a) => a.status === Status.Normal);
    if (!enabled.length) throw new GatewayError(503, 'no_available_agent', 'No model agent is available for this model right now.');
    const strategy = group?.is_enable_model_agent ? group.lb_strategy : model.lb_strategy;
    const agent = choose(strategy, `agents:${group?.id ?? ''}:${model.id}`, untried(enabled, tried.agents));
    const keys = (snapshot.agentKeys.get(agent.id) ?? []).filter((k) => k.status === Status.Normal);
    if (!keys.length) throw new GatewayError(503, 'no_available_key', 'No key is available for this model right now.');
    const key = choose(agent.lb_strategy, `keys:${agent.id}`, untried(keys, tried.keys));
    const corp = snapshot.corps.get(agent.corp) ?? snapshot.corps.get(model.corp);
    return {
      agent,
      key,
      family: familyOfCorpCode(corp?.code ?? ''),
      wire: agent.wire_api,
      target: { baseUrl: agent.base_url || model.base_url, path: agent.path || model.path, key: key.key, model: upstreamModel(model, requested, agent) },
    };
  }
  // No agents: the model's own endpoint with keys bound directly to the model.
  const keys = (snapshot.directKeys.get(model.id) ?? []).filter((k) => k.status === Status.Normal);
  if (!keys.length) throw new GatewayError(503, 'no_available_key', 'No key is available for this model right now.');
  const key = choose(LbStrategy.Weight, `direct:${model.id}`, untried(keys, tried.keys));
  const corp = snapshot.corps.get(key.corp) ?? snapshot.corps.get(model.corp);
  return {
    agent: null,
    key,
    family: familyOfCorpCode(corp?.code ?? ''),
    wire: 'chat',
    target: { baseUrl: model.base_url, path: model.path, key: key.key, model: upstreamModel(model, requested, null) },
  };
}
