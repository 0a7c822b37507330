// An audit row's before and after as aligned lines for the side-by-side view: both values flattened to
// `path → text` (one row, a map of rows keyed by id, or a request's fields), then paired by path. A line
// is changed when its texts differ, or when the server says the field changed although both sides
// read the same (a secret, masked on both sides).

export interface DiffLine {
  path: string;
  before: string | undefined;
  after: string | undefined;
  changed: boolean;
}

const MAX_DEPTH = 6;

/** Stored rows keep times as epoch milliseconds (`created_at`, `locked_until`…): shown as wire times. */
const TIME_FIELD = /(_at|_time|_until)$/;

function leaf(value: unknown, path: string, time: (ms: number) => string): string {
  if (typeof value === 'number' && value > 1e11 && TIME_FIELD.test(path)) return time(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `{a: {b: 1}, c: [1, 2]}` → [['a.b', '1'], ['c', '[1,2]']]: lists of plain values stay whole. */
export function flatten(value: unknown, time: (ms: number) => string = String, prefix = '', depth = 0, out = new Map<string, string>()): Map<string, string> {
  const plainList = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
  if (value === null || typeof value !== 'object' || plainList || depth >= MAX_DEPTH) {
    if (prefix || value !== null) out.set(prefix || '(value)', leaf(value, prefix, time));
    return out;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (!entries.length) out.set(prefix || '(value)', Array.isArray(value) ? '[]' : '{}');
  for (const [k, v] of entries) flatten(v, time, prefix ? `${prefix}.${k}` : k, depth + 1, out);
  return out;
}

/** `time` renders epoch-ms time fields (the console passes the server's wall clock). */
export function diffLines(before: unknown, after: unknown, changedFields: readonly string[] = [], time: (ms: number) => string = String): DiffLine[] {
  const b = flatten(before, time);
  const a = flatten(after, time);
  const named = new Set(changedFields);
  const paths = [...new Set([...b.keys(), ...a.keys()])];
  return paths.map((path) => {
    const [x, y] = [b.get(path), a.get(path)];
    const bothSides = before !== null && before !== undefined && after !== null && after !== undefined;
    return { path, before: x, after: y, changed: bothSides && (x !== y || path.split('.').some((p) => named.has(p))) };
  });
}
