// Paging and filters of a list page live in the URL query (shareable view state), so a reload, the tab bar or a
// shared link keeps them. This module is the codec between URLSearchParams and the page request body.
import { PAGE_SIZES } from '@fastgate/core/api';

/**
 * How a filter travels: `string` (text, single select, "true"/"false"), `number` (status, integer ids),
 * `strings` / `numbers` (date ranges, multi-selects; repeated keys in the URL).
 */
export type FilterValueType = 'string' | 'number' | 'strings' | 'numbers';

/** The kinds of search-form fields; each has a default value type. */
type FilterKind = 'text' | 'select' | 'status' | 'bool' | 'dateRange' | 'number' | 'custom';

/** What the URL codec needs to know about a filter (the search form adds labels and options). */
export interface FilterSpec {
  field: string;
  kind: FilterKind;
  /** Multi-select (select / custom). */
  multiple?: boolean;
  /** Overrides the kind's default, e.g. `number` for a select of numeric codes. */
  valueType?: FilterValueType;
}

export type FilterValues = Record<string, string | number | string[] | number[] | undefined>;

function valueTypeOf(spec: FilterSpec): FilterValueType {
  if (spec.valueType) return spec.valueType;
  switch (spec.kind) {
    case 'status':
    case 'number':
      return 'number';
    case 'dateRange':
      return 'strings';
    default:
      return spec.multiple ? 'strings' : 'string';
  }
}

export function valueTypes(specs: readonly FilterSpec[]): Record<string, FilterValueType> {
  return Object.fromEntries(specs.map((s) => [s.field, valueTypeOf(s)]));
}

const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

/** `current` and `pageSize` from the URL; anything out of range falls back to page 1 / the first size. */
export function readPaging(search: URLSearchParams): { current: number; pageSize: number } {
  const current = Number(search.get('current'));
  const pageSize = Number(search.get('pageSize'));
  return {
    current: Number.isInteger(current) && current >= 1 ? current : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** The declared filters present in the URL, typed by their value type; absent or empty ones are left out. */
export function readFilters(search: URLSearchParams, types: Record<string, FilterValueType>): FilterValues {
  const out: FilterValues = {};
  for (const [field, type] of Object.entries(types)) {
    if (type === 'strings' || type === 'numbers') {
      const values = search.getAll(field).filter((v) => v !== '');
      const typed = type === 'numbers' ? values.map(Number).filter(Number.isFinite) : values;
      if (typed.length) out[field] = typed as string[] | number[];
      continue;
    }
    const raw = search.get(field);
    if (raw === null || raw === '') continue;
    if (type === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) out[field] = n;
    } else out[field] = raw;
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * A new query string: the declared filters replaced by `values` (empties dropped), paging set, and any
 * other parameter (e.g. `app_id` of a per-app page) kept as it was.
 */
export function writeQuery(
  search: URLSearchParams,
  types: Record<string, FilterValueType>,
  values: FilterValues,
  paging: { current: number; pageSize: number },
): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const field of Object.keys(types)) next.delete(field);
  for (const [field, value] of Object.entries(values)) {
    if (!(field in types) || isEmpty(value)) continue;
    if (Array.isArray(value)) value.forEach((v) => next.append(field, String(v)));
    else next.set(field, String(value));
  }
  next.delete('current');
  next.delete('pageSize');
  if (paging.current !== 1) next.set('current', String(paging.current));
  if (paging.pageSize !== DEFAULT_PAGE_SIZE) next.set('pageSize', String(paging.pageSize));
  return next;
}

/** Filters without their empty entries, ready for the request body. */
export function compactFilters(values: FilterValues): FilterValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => !isEmpty(v)));
}
