// The original console is a client too (issue 15 part 9): it sends numbers and booleans as strings
// ("1", "false") and "" for an empty number or list. These wrappers read those encodings before the
// field's own schema runs; anything else reaches that schema as sent, so "abc" for a number, "1.5" for
// an integer or "yes" for a boolean still fail there, with the schema's own message.
import { z } from 'zod';

/** A decimal number as text: digits with an optional sign and fraction (no exponents, no hex, no spaces inside). */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A number field that also takes its decimal text. `""` is the empty number: `empty` when given
 * (the field's "not set" value), otherwise absent (so a default inside `schema` applies).
 */
export function numberish<T extends z.ZodType>(schema: T, empty?: number) {
  return z.preprocess<unknown, T, z.input<T> | string>((v) => {
    if (typeof v !== 'string') return v;
    const text = v.trim();
    if (text === '') return empty;
    return DECIMAL.test(text) ? Number(text) : v;
  }, schema);
}

/** A boolean field that also takes "true" and "false". */
function boolish<T extends z.ZodType>(schema: T) {
  return z.preprocess<unknown, T, z.input<T> | 'true' | 'false'>((v) => (v === 'true' ? true : v === 'false' ? false : v), schema);
}

/**
 * A list field that also takes `""` for the empty list, and drops `""` items: the original splits an
 * empty joined list (`"".split(',')`) into `[""]`.
 */
export function listish<T extends z.ZodType>(schema: T) {
  return z.preprocess<unknown, T, z.input<T> | ''>((v) => (v === '' ? [] : Array.isArray(v) ? v.filter((item) => item !== '') : v), schema);
}

/** An optional range filter that also takes `[]` (a cleared range picker) for "no filter". */
export function rangeish<T extends z.ZodType>(schema: T) {
  return z.preprocess<unknown, T, z.input<T> | []>((v) => (Array.isArray(v) && v.length === 0 ? undefined : v), schema);
}

/** The boolean of every resource field. */
export const boolField = boolish(z.boolean());

/** An integer field within bounds; `empty` is what `""` reads as (absent by default, see `numberish`). */
export const intField = (min: number, max: number, empty?: number) => numberish(z.number().int().min(min).max(max), empty);

/** A decimal field within bounds (percentages, ratios). */
export const decimalField = (min: number, max: number) => numberish(z.number().min(min).max(max));
