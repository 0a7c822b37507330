// Corp: an upstream vendor; its code picks the gateway's protocol adapter (reference §3.7).
import { z } from 'zod';
import { boolFilter, dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';

export const CORP_PREFIX = '/corp';

/** Codes with a protocol of their own; any other code speaks the OpenAI protocol. */
export const CORP_CODES = ['OpenAI', 'Azure', 'Anthropic', 'Google', 'DeepSeek', 'Baidu', 'Aliyun', 'ZhipuAI', 'Xfyun', 'Moonshot', 'Midjourney', 'Other'] as const;

export const corpCreateSchema = z.object({
  name: name100,
  code: name100,
  sort: z.number().int().min(0).max(1_000_000).optional(),
  is_public: z.boolean().default(false),
  remark: remarkField.default(''),
  status: statusField.default(1),
});
export const corpUpdateSchema = corpCreateSchema.extend({ id: idField });
export const corpPageSchema = pageSchema.extend({
  name: textFilter,
  code: textFilter,
  is_public: boolFilter,
  remark: textFilter,
  status: statusFilter,
  updated_at: dateRangeFilter,
});

export interface Corp {
  id: string;
  name: string;
  code: string;
  sort: number;
  is_public: boolean;
  remark: string;
  status: number;
  created_at: string;
  updated_at: string;
}
