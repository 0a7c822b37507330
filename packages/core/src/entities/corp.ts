// Corp: an upstream vendor; its code picks the gateway's protocol adapter (docs/ORIGINAL-API.md §3.7).
import { z } from 'zod';
import { boolField, numberish } from '../schemas/encodings';
import type { ProviderFamily } from '../constants';
import { defineResource, flag, type Fields } from '../resource';
import { boolFilter, dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';

export const CORP_PREFIX = '/corp';

/** The codes the console offers; a corp may carry any other code, which speaks the OpenAI protocol. */
export const CORP_CODES = ['OpenAI', 'Azure', 'Anthropic', 'Google', 'DeepSeek', 'Baidu', 'Aliyun', 'ZhipuAI', 'Xfyun', 'Moonshot', 'Midjourney', 'Other'] as const;
type CorpCode = (typeof CORP_CODES)[number];

/** Codes are typed by hand, so they compare trimmed and case-insensitively. */
const normalCode = (code: string | undefined): string => (code ?? '').trim().toLowerCase();

/** Whether a corp's code is the named one. */
export const isCorpCode = (code: string | undefined, which: CorpCode): boolean => normalCode(code) === which.toLowerCase();

/** The protocol family a corp's code picks; 'Claude' and 'Gemini' are accepted for Anthropic and Google. */
export function familyOfCorpCode(code: string): ProviderFamily {
  // Normalized once: every call's route asks (one comparison after another lower-cased it up to five times).
  const c = normalCode(code);
  if (c === 'azure') return 'azure';
  if (c === 'anthropic' || c === 'claude') return 'anthropic';
  if (c === 'google' || c === 'gemini') return 'gemini';
  return 'openai';
}

export const corpResource = defineResource({
  prefix: CORP_PREFIX,
  fields: z.object({
    name: name100,
    code: name100,
    /** 0 or absent = after the last one (console/corp.ts). */
    sort: numberish(z.number().int().min(0).max(1_000_000).optional()),
    is_public: boolField.default(false),
    remark: remarkField.default(''),
    status: statusField.default(1),
  }),
  columns: { is_public: flag },
});
type CorpFields = Fields<typeof corpResource>;

export const corpCreateSchema = corpResource.fields;
export const corpUpdateSchema = corpCreateSchema.extend({ id: idField });
export const corpPageSchema = pageSchema.extend({
  name: textFilter,
  code: textFilter,
  is_public: boolFilter,
  remark: textFilter,
  status: statusFilter,
  updated_at: dateRangeFilter,
});

/** A corp on the wire: its fields (with the sort it was given), and the record times. */
export type Corp = { id: string } & Omit<CorpFields, 'sort'> & { sort: number; created_at: string; updated_at: string };
