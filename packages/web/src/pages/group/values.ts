// Group form values ⇄ wire (docs/ORIGINAL-API.md §3.8): the discount is typed as a percent and returned as a
// fraction; rate limits left empty mean 0 (unlimited, docs/SPEC.md §5); keyword forwarding is edited as rows and
// sent as the two index-paired arrays; "" expires never.
import { ForwardRule, MatchRule, forwardConfigSchema, type RateLimits } from '@fastgate/core/entities/catalogue';
import { groupResource, type Group } from '@fastgate/core/entities/group';
import type { Fields } from '@fastgate/core/resource';
import { discountPercent, RATE_LIMIT_KEYS } from '../../components/group/display';

interface KeywordRow {
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

/**
 * The form's values: the group's fields as declared (core entities/group.ts), except the rate limits
 * (empty = 0, unlimited) and forwarding (rows, above), with the fields a cleared input leaves empty optional.
 */
type Optional = 'models' | 'vip_levels' | 'expires_at' | 'remark' | 'quota' | 'model_agents';
type GroupFields = Fields<typeof groupResource>;
export type GroupValues = Omit<GroupFields, 'rate_limits' | 'forward_config' | Optional> &
  Partial<Pick<GroupFields, Optional>> & {
    rate_limits?: Partial<Record<keyof RateLimits, number | undefined | null>>;
    forward_config?: ForwardValues;
  };

/** Starting values of the create form: the declared defaults, full price, weight 1, no limits shown. */
export const groupInitialValues: Partial<GroupValues> = {
  ...groupResource.defaults(),
  discount: 100,
  weight: 1,
  rate_limits: {},
  forward_config: { forward_rule: ForwardRule.All, match_rule: [MatchRule.Regex], keyword_rows: [] },
};

export function groupToValues(row: Group): Partial<GroupValues> {
  const f = row.forward_config;
  return {
    ...groupResource.pick(row),
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
  const { forward_config: _forward, ...fields } = groupResource.pick(v);
  return {
    ...fields,
    name: v.name.trim(),
    models: v.models ?? [],
    vip_levels: v.vip_levels ?? [],
    expires_at: v.expires_at ?? '',
    remark: v.remark ?? '',
    quota: v.is_limit_quota ? (v.quota ?? 0) : 0,
    rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, v.rate_limits?.[k] ?? 0])),
    // Agents are admin-only: a reseller's group never routes through them (the server refuses it).
    is_enable_model_agent: admin && v.is_enable_model_agent,
    model_agents: admin ? (v.model_agents ?? []) : [],
    ...(keepForward ? { forward_config: forward } : {}),
  };
}
