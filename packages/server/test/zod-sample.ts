// Reads the zod schemas the console routes register (app.consoleRoutes) for the authorisation-matrix
// and fuzz suites: which fields a route takes, a small valid body, and wrong or hostile values per field.
import type { z } from 'zod';

/** zod 4's definition of any schema (the fields these helpers read). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The side of a pipe that describes its values: a preprocess (a transform into a schema) is described by the schema. */
const pipeSide = (d: Def): z.ZodType => (d.in && defOf(d.in).type === 'transform' ? d.out! : d.in!);

/** The schema under optional/default/nullable/pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    const d = defOf(s);
    if (d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = pipeSide(d);
    else if (d.type === 'lazy' && d.getter) s = d.getter();
    else return s;
  }
}

export const kindOf = (s: z.ZodType): string => defOf(unwrap(s)).type;

/** Top-level fields of an object schema (loose and refined objects too); {} for anything else. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  const d = defOf(unwrap(schema));
  if (d.type === 'object') return d.shape ?? {};
  // A discriminated union of objects: the union of their fields.
  if (d.type === 'union') return Object.assign({}, ...(d.options ?? []).map((o) => shapeOf(o)));
  return {};
}

/** Optional, defaulted, or a filter whose transform takes "absent". */
const isOptional = (s: z.ZodType) => s.safeParse(undefined).success;

/** Values of the right shape for common field names whose formats a generic sample would miss. */
const NAMED: Record<string, unknown> = {
  email: 'fuzz@example.com',
  to: 'fuzz@example.com',
  account: 'fuzz-account',
  domain: 'fuzz.example.com',
  phone: '',
  color: '',
  password: 'Passw0rd!fuzz',
  old_password: 'Passw0rd!old',
  new_password: 'Passw0rd!new',
  key: 'sk-FastAPI' + 'a'.repeat(41),
  base_url: 'http://127.0.0.1:9/v1',
};

const STRING_CANDIDATES = ['fuzz-sample', '', 'fuzz@example.com', 'https://example.com/a.png', '2031-01-01 00:00:00', '#112233', '127.0.0.1', 'Passw0rd!fuzz'];

const ok = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

/**
 * A value `s` accepts, preferring the smallest; `undefined` when none of the candidates fits. Optional
 * fields of objects are left out unless `full`.
 */
export function sample(s: z.ZodType, name = '', full = false): unknown {
  const d = defOf(s);
  if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault' || d.type === 'nullable' || d.type === 'catch' || d.type === 'readonly') {
    const inner = sample(d.innerType!, name, full);
    return inner === undefined && d.type !== 'optional' ? undefined : inner;
  }
  if (d.type === 'pipe') return first(s, [sample(pipeSide(d), name, full)]);
  if (d.type === 'lazy') return sample(d.getter!(), name, full);
  const candidates: unknown[] = name in NAMED ? [NAMED[name]] : [];
  switch (d.type) {
    case 'string':
      return first(s, [...candidates, ...STRING_CANDIDATES, 'a'.repeat((s as z.ZodString).minLength ?? 1)]);
    case 'number':
    case 'int': {
      const n = s as z.ZodNumber;
      return first(s, [...candidates, 1, 0, 10, 100, n.minValue ?? 0]);
    }
    case 'boolean':
      return false;
    case 'literal':
      return d.values![0];
    case 'enum':
      return Object.values(d.entries!)[0];
    case 'null':
      return null;
    case 'unknown':
    case 'any':
      return undefined;
    case 'record':
      return {};
    case 'array':
      return first(s, [[], [sample(d.element!, name, full)]]);
    case 'union':
      return first(s, [...candidates, ...d.options!.map((o) => sample(o, name, full))]);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(d.shape!)) {
        if (!full && isOptional(f)) continue;
        const v = sample(f, k, full);
        if (v !== undefined) out[k] = v;
      }
      if (ok(s, out) || full) return out;
      return sample(s, name, true);
    }
    default:
      return first(s, candidates);
  }
}

function first(s: z.ZodType, candidates: unknown[]): unknown {
  return candidates.find((c) => c !== undefined && ok(s, c));
}

// ---- hostile values -----------------------------------------------------------------------------

/** Strings a name or remark field may legitimately hold: stored and shown as written. */
export const HOSTILE_TEXT = [
  '<img src=x onerror=window.__pwned=1><b>bold</b>',
  "' OR 1=1 --",
  '{"$gt":""}',
  'Robert"); DROP TABLE users;--',
  '\u202Eevil\u202C \u200B\u200D zero\uFEFFwidth',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '${jndi:ldap://x}{{7*7}}',
  '😀 汉字 العربية',
];

/** Strings no field may store: a NUL byte and lone surrogates (neither survives UTF-8 on PostgreSQL). */
export const BROKEN_TEXT = ['a\u0000b', '\uD800', 'x\uDFFFy'];

/** Own `__proto__` / `constructor` keys, as a JSON body carries them (a literal would set the prototype). */
const PROTO_KEYS: unknown[] = [JSON.parse('{"__proto__":{"polluted":1}}'), JSON.parse('{"constructor":{"prototype":{"polluted":1}}}')];

function deepObject(depth: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

function deepArray(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Wrong or hostile values for one field, by its type (deterministic; callers sample from them). */
export function fieldVariants(s: z.ZodType): unknown[] {
  const inner = unwrap(s);
  const d = defOf(inner);
  const common: unknown[] = [null, { $gt: '' }, ['__proto__'], deepObject(200), 'x'.repeat(200_000), -1, 1e308, -1e308, 2 ** 31, '999999999999999', true];
  switch (d.type) {
    case 'string': {
      const max = (inner as z.ZodString).maxLength ?? 1000;
      return [...common, 123, [], {}, 'a'.repeat(max), 'a'.repeat(max + 1), ...HOSTILE_TEXT, ...BROKEN_TEXT];
    }
    case 'number':
    case 'int':
      return [...common, 'NaN', 'Infinity', '1e308', 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 31) - 1, '12', {}, [], "1 OR 1=1"];
    case 'boolean':
      return [...common, 'true', 0, 1, 'yes', {}, []];
    case 'array':
      return [...common, 'x', {}, [null], [{}], [[['x']]], Array.from({ length: 5000 }, (_, i) => `id${i}`), deepArray(500), ["' OR 1=1 --"], ['..%2f..%2f'], BROKEN_TEXT];
    case 'object':
    case 'record':
      return [...common, [], 'x', 1, ...PROTO_KEYS, deepObject(500)];
    default:
      return [...common, 'x', {}, [], 0, ...HOSTILE_TEXT.slice(0, 2), BROKEN_TEXT[0]];
  }
}

/** A small seeded generator (mulberry32): the same run every time. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` items of `list` picked without repeats by `rand`. */
export function pickSome<T>(rand: () => number, list: readonly T[], n: number): T[] {
  const pool = [...list];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
  return out;
}
