// Prices of async tasks (model-quota unitQuotaSchema): the model's unit block — fixed_quota per call,
// second, minute or character — times the discount, through `priceUnit`. The block and the discount are
// taken once, at submission, and kept with the task, so a price edited while it runs does not change
// what it costs. The reservation assumes the requested duration (60 s when none is given); the final
// price uses the duration the provider reports (the requested one when it reports none).
import type { QUOTA_UNITS } from '@fastgate/core/entities/model-quota';
import { countCharacters } from './media';
import { priceUnit, UNIT_BLOCKS, type PriceBlock } from './price';

export type QuotaUnit = (typeof QUOTA_UNITS)[number];

/** Seconds a per-second or per-minute task is reserved for when the request names no `duration`. */
export const DEFAULT_TASK_SECONDS = 60;

/** The price agreed at submission; `block` null: the model has no price block for its type (free). */
export interface TaskPrice {
  block: PriceBlock | null;
  fixed_quota: number;
  unit: QuotaUnit;
  discount_bp: number;
  /** What the estimate measured: seconds (requested or default) and characters of `text`. */
  seconds: number;
  characters: number;
}

export function taskPrice(input: { quotas: Record<string, unknown> | undefined; type: number; discountBp: number; duration?: number; text?: string }): TaskPrice {
  const name = UNIT_BLOCKS[input.type] ?? null;
  const block = name ? (input.quotas?.[name] as { fixed_quota: number; unit?: QuotaUnit } | undefined) : undefined;
  return {
    block: block ? name : null,
    fixed_quota: block?.fixed_quota ?? 0,
    unit: block?.unit ?? 'call',
    discount_bp: input.discountBp,
    seconds: input.duration ?? DEFAULT_TASK_SECONDS,
    characters: countCharacters(input.text),
  };
}

/** How many units of its block a task of `seconds` and `characters` uses. */
export function taskUnits(unit: QuotaUnit, seconds: number, characters: number): number {
  switch (unit) {
    case 'call':
      return 1;
    case 'second':
      return seconds;
    case 'minute':
      return seconds / 60;
    case 'character':
      return characters;
  }
}

function quotaOf(p: TaskPrice, seconds: number): number {
  if (!p.block) return 0;
  return priceUnit({ fixed_quota: p.fixed_quota, unit: p.unit }, taskUnits(p.unit, seconds, p.characters), p.discount_bp, p.block).quota;
}

/** What the submission reserves (and charges until the task ends). */
export const estimateTask = (p: TaskPrice): number => quotaOf(p, p.seconds);

/** What a completed task costs, from the seconds of media the provider reported (0 = not reported). */
export const finalTaskPrice = (p: TaskPrice, reportedSeconds: number): number => quotaOf(p, reportedSeconds > 0 ? reportedSeconds : p.seconds);
