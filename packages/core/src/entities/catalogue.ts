// Enums and payload pieces shared by models, model agents and groups (docs/SPEC.md §3, docs/ORIGINAL-API.md §3.5–§3.8).
import { z } from 'zod';
import { intField, listish, numberish } from '../schemas/encodings';
import { parseJson, type Codec } from '../resource';
import { idField } from '../schemas/common';

/** How a model, group or agent spreads calls over agents or keys: 1 round robin, 2 smooth weighted. */
export const LbStrategy = { RoundRobin: 1, Weight: 2 } as const;
export const lbStrategyField = numberish(z.union([z.literal(LbStrategy.RoundRobin), z.literal(LbStrategy.Weight)]));

/** Forwarding rules (docs/ORIGINAL-GATEWAY.md §1.4); UsedQuota exists on groups only. */
export const ForwardRule = { All: 1, Keywords: 2, ContentLength: 3, UsedQuota: 4 } as const;
/** Keyword matching: 1 smart (a decision model picks), 2 regex. */
export const MatchRule = { Smart: 1, Regex: 2 } as const;

/** Id lists (models, groups, agents); absent = [] (docs/ORIGINAL-API.md §2.1). */
export const idList = listish(z.array(idField).max(5000)).default([]);
/** Weights of agents and groups: 1 to 100 (docs/SPEC.md §5). */
export const weightField = intField(1, 100);

const modelRef = z.string().trim().max(32).default('');

/**
 * A forward config's fields; whether they are complete for the rule is `checkForward`'s. The original's
 * idle config (forwarding off) sends "" for the rule and the numbers: they read as unset.
 */
export const forwardConfigFields = z.object({
  forward_rule: numberish(z.union([z.literal(ForwardRule.All), z.literal(ForwardRule.Keywords), z.literal(ForwardRule.ContentLength), z.literal(ForwardRule.UsedQuota)]).default(ForwardRule.All)),
  match_rule: z.array(numberish(z.union([z.literal(MatchRule.Smart), z.literal(MatchRule.Regex)]))).max(2).default([]),
  /** Model ids. */
  target_model: modelRef,
  decision_model: modelRef,
  target_models: z.array(idField).max(100).default([]),
  /** Keyword i selects target_models[i]; `|` inside a keyword reads "or". */
  keywords: z.array(z.string().trim().min(1).max(500)).max(100).default([]),
  content_length: intField(0, 10_000_000, 0).default(0),
  used_quota: intField(0, Number.MAX_SAFE_INTEGER, 0).default(0),
});

/** The settings the rule needs, as issues under `at` (the config's own path within what is parsed). */
function checkForward(f: z.output<typeof forwardConfigFields>, ctx: z.RefinementCtx, at: string[] = []) {
  const need = (ok: boolean, path: string, message: string) => ok || ctx.addIssue({ code: 'custom', path: [...at, path], message });
  if (f.forward_rule === ForwardRule.All) need(!!f.target_model || f.target_models.length > 0, 'target_model', 'required');
  if (f.forward_rule === ForwardRule.Keywords) {
    need(f.keywords.length > 0, 'keywords', 'required');
    need(f.keywords.length === f.target_models.length, 'target_models', 'one per keyword');
    need(f.match_rule.length > 0, 'match_rule', 'required');
    need(!f.match_rule.includes(MatchRule.Smart) || !!f.decision_model, 'decision_model', 'required');
  }
  if (f.forward_rule === ForwardRule.ContentLength) {
    need(!!f.target_model, 'target_model', 'required');
    need(f.content_length > 0, 'content_length', 'required');
  }
  if (f.forward_rule === ForwardRule.UsedQuota) need(!!f.target_model, 'target_model', 'required');
}

export const forwardConfigSchema = forwardConfigFields.superRefine((f, ctx) => checkForward(f, ctx));
export type ForwardConfig = z.infer<typeof forwardConfigSchema>;

/**
 * A config with nothing set: what a group without one shows, as the original did (its group form binds
 * to the object's fields), with the original form's default match rule so its detail names one.
 */
export const idleForwardConfig = (): ForwardConfig => forwardConfigFields.parse({ match_rule: [MatchRule.Regex] });

/**
 * A model's or group's forward config is complete where forwarding is on. Where it is off, an
 * incomplete one (the original console sends an empty target then) is dropped, not refused.
 */
export function forwardWhenEnabled<S extends z.ZodType<{ is_enable_forward: boolean; forward_config?: ForwardConfig | undefined }>>(s: S): S {
  const complete = (f: ForwardConfig) => forwardConfigSchema.safeParse(f).success;
  return s
    .overwrite((v) => (!v.is_enable_forward && v.forward_config && !complete(v.forward_config) ? { ...v, forward_config: undefined } as typeof v : v))
    .superRefine((v, ctx) => {
      if (v.is_enable_forward && v.forward_config) checkForward(v.forward_config, ctx, ['forward_config']);
    });
}

/** A forward config's column: `{}` when none is set, and anything without a rule reads as none. */
export const forwardColumn: Codec<ForwardConfig | undefined, string> = {
  encode: (f) => JSON.stringify(f ?? {}),
  decode: (s) => {
    const f = parseJson<Partial<ForwardConfig>>(s, {});
    return f.forward_rule === undefined ? undefined : (f as ForwardConfig);
  },
};

/** Response form: the input plus the names of the models it refers to. */
export interface ForwardConfigWire extends ForwardConfig {
  target_model_name: string;
  decision_model_name: string;
  target_model_names: string[];
}

/**
 * Rate limits of app keys, apps, users, groups and VIP levels: 0 or absent = unlimited (docs/SPEC.md §3.13, §5).
 * r*: requests, t*: tokens, i*: requests per client IP; per second, minute and day.
 */
const limit = intField(0, 1_000_000_000).default(0);
export const rateLimitsSchema = z.object({ rps: limit, rpm: limit, rpd: limit, tps: limit, tpm: limit, tpd: limit, ips: limit, ipm: limit, ipd: limit });
export type RateLimits = z.infer<typeof rateLimitsSchema>;

/** Rate limits' column: JSON text; a limit the row lacks (rows of older versions) or cannot hold reads as 0, unlimited. */
export const rateLimitsColumn: Codec<RateLimits, string> = {
  encode: (r) => JSON.stringify(r ?? rateLimitsSchema.parse({})),
  decode: (s) => {
    const r = rateLimitsSchema.safeParse(parseJson<unknown>(s, {}));
    return r.success ? r.data : rateLimitsSchema.parse({});
  },
};
