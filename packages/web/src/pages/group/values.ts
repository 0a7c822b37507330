// Group form values ⇄ wire (reference §3.8): the discount is typed as a percent and returned as a
// fraction; rate limits left empty mean 0 (unlimited, SPEC §5); keyword forwarding is edited as rows and
// sent as the two index-paired arrays; "" expires never.
import { ForwardRule, LbStrategy, MatchRule, forwardConfigSchema, type RateLimits } from '@fastgate/core/entities/catalogue';
import type { Group } from '@fastgate/core/entities/group';
import { Status } from '@fastgate/core/constants';

/** Wire fraction (0.8) → the percent a person reads and types (80); 0.01 % steps, as stored. */
export function discountPercent(fraction: number): number {
  return Math.round(fraction * 10_000) / 100;
}

/** Requests, tokens, and requests per client IP; each per second, minute and day. */
export const RATE_LIMIT_KEYS = ['rps', 'rpm', 'rpd', 'tps', 'tpm', 'tpd', 'ips', 'ipm', 'ipd'] as const satisfies readonly (keyof RateLimits)[];

export interface KeywordRow {
  keyword: string;
  target_model?: string;
}

export interface ForwardValues {
  forward_rule: number;
  match_rule?: number[];
  target_model?: string;
  decision_model?: string;
  keyword_rows?: KeywordRow[];
  content_length?: number;
  used_quota?: number;
}

export interface GroupValues {
  name: string;
  discount: number;
  models?: string[];
  is_default: boolean;
  is_public: boolean;
  vip_levels?: string[];
  weight: number;
  expires_at?: string;
  remark?: string;
  is_limit_quota: boolean;
  quota?: number;
  rate_limits?: Partial<Record<keyof RateLimits, number | undefined | null>>;
  is_enable_model_agent: boolean;
  lb_strategy: number;
  model_agents?: string[];
  is_enable_forward: boolean;
  forward_config?: ForwardValues;
  status: number;
}

export const groupInitialValues: Partial<GroupValues> = {
  discount: 100,
  weight: 1,
  is_default: false,
  is_public: false,
  is_limit_quota: false,
  quota: 0,
  is_enable_model_agent: false,
  lb_strategy: LbStrategy.RoundRobin,
  is_enable_forward: false,
  forward_config: { forward_rule: ForwardRule.All, match_rule: [MatchRule.Regex], keyword_rows: [] },
  expires_at: '',
  status: Status.Normal,
};

export function groupToValues(row: Group): Partial<GroupValues> {
  const f = row.forward_config;
  return {
    ...row,
    discount: discountPercent(row.discount),
    // 0 = unlimited: shown as an empty input.
    rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, row.rate_limits?.[k] || undefined])),
    forward_config: f
      ? {
          forward_rule: f.forward_rule || ForwardRule.All,
          match_rule: f.match_rule?.length ? f.match_rule : [MatchRule.Regex],
          target_model: f.target_model || f.target_models?.[0] || undefined,
          decision_model: f.decision_model || undefined,
          keyword_rows: (f.keywords ?? []).map((keyword, i) => ({ keyword, target_model: f.target_models?.[i] })),
          content_length: f.content_length || undefined,
          used_quota: f.used_quota || undefined,
        }
      : groupInitialValues.forward_config,
  };
}

/** Only the fields of the chosen rule, so a rule switched away from leaves nothing behind. */
export function forwardBody(f: ForwardValues | undefined) {
  const rule = f?.forward_rule ?? ForwardRule.All;
  const keywords = rule === ForwardRule.Keywords;
  const rows = keywords ? (f?.keyword_rows ?? []) : [];
  const matchRule = keywords ? (f?.match_rule ?? []) : [];
  return {
    forward_rule: rule,
    match_rule: matchRule,
    target_model: keywords ? '' : (f?.target_model ?? ''),
    decision_model: keywords && matchRule.includes(MatchRule.Smart) ? (f?.decision_model ?? '') : '',
    target_models: rows.map((r) => r.target_model ?? ''),
    keywords: rows.map((r) => r.keyword.trim()),
    content_length: rule === ForwardRule.ContentLength ? (f?.content_length ?? 0) : 0,
    used_quota: rule === ForwardRule.UsedQuota ? (f?.used_quota ?? 0) : 0,
  };
}

export function groupToBody(v: GroupValues, admin: boolean): object {
  const forward = forwardBody(v.forward_config);
  // A switched-off forward keeps its rule when it is complete; an incomplete one would fail the request.
  const keepForward = v.is_enable_forward || forwardConfigSchema.safeParse(forward).success;
  return {
    name: v.name.trim(),
    discount: v.discount,
    models: v.models ?? [],
    is_default: v.is_default,
    is_public: v.is_public,
    vip_levels: v.vip_levels ?? [],
    weight: v.weight,
    expires_at: v.expires_at ?? '',
    remark: v.remark ?? '',
    is_limit_quota: v.is_limit_quota,
    quota: v.is_limit_quota ? (v.quota ?? 0) : 0,
    rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, v.rate_limits?.[k] ?? 0])),
    // Agents are admin-only: a reseller's group never routes through them (the server refuses it).
    is_enable_model_agent: admin && v.is_enable_model_agent,
    lb_strategy: v.lb_strategy,
    model_agents: admin ? (v.model_agents ?? []) : [],
    is_enable_forward: v.is_enable_forward,
    ...(keepForward ? { forward_config: forward } : {}),
    status: v.status,
  };
}
