// Resolution (docs/ORIGINAL-GATEWAY.md §1.3–§1.5): which group bills the call and at what discount, which
// model record the client meant, where forwarding sends it, and the preset config it gets.
import { Status } from '@fastgate/core/constants';
import { ForwardRule, MatchRule, type ForwardConfig } from '@fastgate/core/entities/catalogue';
import { ModelType } from '@fastgate/core/entities/model';
import { billedDiscount, FULL_PRICE_BP } from '../billing/floor';
import { usableGroups } from '../catalogue/access';
import type { ChatMessage, ChatRequest } from '../providers/types';
import type { Caller } from './admit';
import { GatewayError } from './errors';
import type { SnapGroup, SnapModel, Snapshot } from './snapshot';

/** Gateway endpoints and the model types that may serve them. */
export const ENDPOINT_TYPES = {
  chat: [ModelType.Text, ModelType.ImageToText, ModelType.Multimodal, ModelType.MultimodalRealtime, ModelType.MultimodalSpeech],
  completions: [ModelType.Text, ModelType.Multimodal],
  embeddings: [ModelType.Embedding, ModelType.MultimodalEmbedding],
  images: [ModelType.TextToImage, ModelType.ImageToImage, ModelType.Multimodal],
  speech: [ModelType.TextToSpeech, ModelType.MultimodalSpeech],
  transcriptions: [ModelType.SpeechToText, ModelType.MultimodalSpeech],
  moderations: [ModelType.Text, ModelType.Multimodal],
  // The catalogue has no reranker type: rerankers are catalogued as embedding models (rerank.ts).
  rerank: [ModelType.Embedding, ModelType.MultimodalEmbedding],
  // Async tasks (core TASK_KIND_TYPE): one model type per kind.
  task_audio: [ModelType.AudioClone],
  task_video: [ModelType.DigitalHuman],
  task_videosecondcreation: [ModelType.VideoSecondCreation],
} as const satisfies Record<string, readonly number[]>;
export type Endpoint = keyof typeof ENDPOINT_TYPES;

export interface Resolution {
  /** The model the client asked for: its price is what the call costs (docs/ORIGINAL-GATEWAY.md §1.3). */
  model: SnapModel;
  /** Where the call actually goes after forwarding. */
  target: SnapModel;
  group: SnapGroup | null;
  /** What the call is billed at (billing/floor.ts billedDiscount: group × VIP level, never below the floor); 10000 = full price. */
  discountBp: number;
  /** The caller's reseller's floor (basis points); 0 = the caller has no reseller. */
  floorBp: number;
  forwarded: boolean;
  /** Keyword forwarding whose regex found nothing and that asks a decision model (run.ts does the call). */
  smart?: ForwardConfig;
}

// The name is the client's, echoed clipped (as /v1/models/{id} does): a 200 KB name is not sent back whole.
const notFound = (name: string) => new GatewayError(404, 'model_not_found', `The model \`${name.slice(0, 200)}\` does not exist or you do not have access to it.`);

/** What a user may route through, as of the snapshot's groups, the user's record and VIP level, and a moment. */
interface Usable {
  /** The user's usable groups in gateway order (catalogue/access.ts); shared between calls. */
  groups: readonly SnapGroup[];
  /** The models granted to the user directly (users.models). */
  direct: ReadonlySet<string>;
}
interface KeptUsable extends Usable {
  groupList: readonly SnapGroup[];
  vip: Caller['vip'];
  /** Valid from the moment it was made until the first of its groups expires. */
  from: number;
  until: number;
}
const keptUsable = new WeakMap<Caller['user'], KeptUsable>();

/**
 * The user's usable groups and direct models, made once while nothing they depend on changes: the snapshot
 * replaces the user, the group list and the VIP level when they change, and only a group that is usable now
 * can stop being so with time (at its expiry). Each call parsed the user's grants and filtered and sorted
 * every group of the installation again (docs/BENCHMARKS.md, eleventh pass).
 */
export function usableFor(snapshot: Snapshot, caller: Pick<Caller, 'user' | 'vip'>, now: number): Usable {
  const { user, vip } = caller;
  const kept = keptUsable.get(user);
  if (kept && kept.groupList === snapshot.groupList && kept.vip === vip && now >= kept.from && now < kept.until) return kept;
  const groups = usableGroups(user, snapshot.groupList, now, vip);
  let until = Infinity;
  for (const g of groups) if (g.expires_at !== null && g.expires_at > 0) until = Math.min(until, g.expires_at);
  const made: KeptUsable = { groups, direct: new Set<string>(JSON.parse(user.models || '[]') as string[]), groupList: snapshot.groupList, vip, from: now, until };
  keptUsable.set(user, made);
  return made;
}

function groupAllowed(caller: Caller, group: SnapGroup, snapshot: Snapshot, now: number): boolean {
  return usableGroups(caller.user, [group], now, caller.vip).length === 1 && snapshot.groups.has(group.id);
}

/**
 * Model records the string may mean, most exact first: display name, model id, then `*` patterns. (Loops
 * into one array: the filters and spreads made seven arrays a call.)
 */
function candidates(snapshot: Snapshot, requested: string): SnapModel[] {
  const out: SnapModel[] = [];
  const exact = snapshot.modelsByName.get(requested);
  if (exact) {
    for (const id of exact) {
      const m = snapshot.models.get(id);
      if (m && m.name === requested) out.push(m);
    }
    for (const id of exact) {
      const m = snapshot.models.get(id);
      if (m && m.name !== requested) out.push(m);
    }
  }
  for (const w of snapshot.wildcardModels) {
    if (!w.pattern.test(requested)) continue;
    const m = snapshot.models.get(w.id);
    if (m) out.push(m);
  }
  return out;
}

export function resolve(snapshot: Snapshot, caller: Caller, requested: string, endpoint: Endpoint, body: ChatRequest | undefined, now = Date.now()): Resolution {
  if (!requested) throw new GatewayError(400, 'model_required', 'You must provide a model parameter.');
  const { user, app, appKey } = caller;
  // A bound group (key first, then app) decides; otherwise the user's usable groups in gateway order.
  const boundId = appKey.is_bind_group && appKey.group_id ? appKey.group_id : app.is_bind_group && app.group_id ? app.group_id : '';
  const usable = usableFor(snapshot, caller, now);
  let groups: readonly SnapGroup[];
  if (boundId) {
    const bound = snapshot.groups.get(boundId);
    if (!bound || !groupAllowed(caller, bound, snapshot, now)) throw new GatewayError(403, 'group_unavailable', 'The group bound to this key is disabled, expired or not yours.');
    groups = [bound];
  } else {
    groups = usable.groups;
  }
  const { direct } = usable;

  let model: SnapModel | undefined;
  let group: SnapGroup | null = null;
  for (const m of candidates(snapshot, requested)) {
    const g = groups.find((x) => x.modelIds.has(m.id));
    if (g || (!boundId && (direct.has(m.id) || m.is_public || user.role === 'admin'))) {
      model = m;
      group = g ?? null;
      break;
    }
  }
  if (!model) throw notFound(requested);
  if (model.status !== Status.Normal) throw new GatewayError(403, 'model_disabled', `The model \`${requested}\` is disabled.`);
  // Allow-lists narrow further: the app's, else the key's (docs/ORIGINAL-GATEWAY.md §1.3 step 4).
  const allow = app.models.length ? app.models : appKey.models;
  if (allow.length && !allow.includes(model.id)) throw notFound(requested);
  if (!(ENDPOINT_TYPES[endpoint] as readonly number[]).includes(model.type)) {
    throw new GatewayError(400, 'unsupported_endpoint', `The model \`${requested}\` does not support this endpoint.`);
  }
  if (group && group.is_limit_quota && group.quota <= 0) throw new GatewayError(429, 'group_quota_exhausted', 'The quota of your group is used up.');

  const { target, smart } = body ? forward(snapshot, model, group, body) : { target: model, smart: undefined };
  // A reseller's user never pays below its reseller's floor (admit.ts found the reseller enabled).
  const floorBp = user.rid > 0 ? (caller.reseller?.floor_bp ?? FULL_PRICE_BP) : 0;
  const discountBp = billedDiscount(group ? group.discount_bp : FULL_PRICE_BP, caller.vip?.discount_bp, floorBp);
  return { model, target, group, discountBp, floorBp, forwarded: target.id !== model.id, smart };
}

const roundRobin = new Map<string, number>();

/** The text forwarding rules look at: the last message's content, as a string. */
function lastText(messages: ChatMessage[]): string {
  const c = messages.at(-1)?.content;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => ('text' in p ? p.text : '')).join(' ') : '';
}

function targetOf(config: ForwardConfig, body: ChatRequest, group: SnapGroup | null, key: string): string {
  switch (config.forward_rule) {
    case ForwardRule.All: {
      if (config.target_models.length) {
        const n = roundRobin.get(key) ?? 0;
        roundRobin.set(key, n + 1);
        return config.target_models[n % config.target_models.length]!;
      }
      return config.target_model;
    }
    case ForwardRule.Keywords: {
      if (!config.match_rule.includes(MatchRule.Regex)) return '';
      const prompt = lastText(body.messages).toLowerCase().replace(/\s+/g, '');
      const hit = config.keywords.findIndex((k) => {
        try {
          return new RegExp(k.toLowerCase().replace(/\s+/g, '')).test(prompt);
        } catch {
          return prompt.includes(k.toLowerCase());
        }
      });
      return hit >= 0 ? (config.target_models[hit] ?? '') : '';
    }
    case ForwardRule.ContentLength: {
      const length = body.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content ?? '').length), 0);
      return length >= config.content_length ? config.target_model : '';
    }
    case ForwardRule.UsedQuota:
      return group && group.used_quota >= config.used_quota ? config.target_model : '';
  }
}

/**
 * Follows forwarding (a group's rule replaces the model's), target after target, stopping at a missing
 * or disabled target and at a cycle (the original has no cycle guard: weak spot).
 */
function forward(snapshot: Snapshot, model: SnapModel, group: SnapGroup | null, body: ChatRequest): { target: SnapModel; smart?: ForwardConfig } {
  // Most calls: no rule at all.
  if (!(group?.forward_config ?? model.forward_config)) return { target: model };
  const seen = new Set([model.id]);
  let current = model;
  for (let hop = 0; hop < 5; hop++) {
    const config = group?.forward_config ?? current.forward_config;
    if (!config) return { target: current };
    const id = targetOf(config, body, group, `${group?.id ?? ''}:${current.id}`);
    if (!id && config.forward_rule === ForwardRule.Keywords && config.match_rule.includes(MatchRule.Smart) && config.decision_model) {
      return { target: current, smart: config };
    }
    const next = id ? snapshot.models.get(id) : undefined;
    if (!next || next.status !== Status.Normal || seen.has(next.id)) return { target: current };
    seen.add(next.id);
    current = next;
    if (group?.forward_config) return { target: current };
  }
  return { target: current };
}

/** The last message's text, for keyword rules and the decision model. */
export { lastText };

/** Preset config (docs/ORIGINAL-GATEWAY.md §1.5): the system prompt and the max_tokens clamp of the model actually called. */
export function applyPreset(model: SnapModel, body: ChatRequest): ChatRequest {
  const preset = model.preset_config;
  if (!preset) return body;
  let messages = body.messages;
  if (preset.system_role_prompt) {
    const system: ChatMessage = { role: preset.is_support_system_role ? 'system' : 'user', content: preset.system_role_prompt };
    messages = messages[0]?.role === 'system' ? [system, ...messages.slice(1)] : [system, ...messages];
  } else if (!preset.is_support_system_role) {
    // The model takes no system role: fold system turns into user turns.
    messages = messages.map((m) => (m.role === 'system' || m.role === 'developer' ? { ...m, role: 'user' } : m));
  }
  const out: ChatRequest = { ...body, messages };
  if (typeof out.max_tokens === 'number') {
    if (preset.max_tokens > 0) out.max_tokens = Math.min(out.max_tokens, preset.max_tokens);
    if (preset.min_tokens > 0) out.max_tokens = Math.max(out.max_tokens, preset.min_tokens);
  }
  return out;
}
