// Text the database can keep as written: PostgreSQL refuses a NUL byte in a text value (the whole
// statement fails), and a lone UTF-16 surrogate has no UTF-8 form at all. Console input with either
// is refused (http/validate.ts); records of what clients and upstreams sent (call logs, tasks) keep
// the rest of the text with U+FFFD in their place, so one hostile request cannot fail a batch write.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export const isStorable = (text: string): boolean => !UNSTORABLE.test(text);

export const storable = (text: string): string => (isStorable(text) ? text : text.replace(UNSTORABLE_ALL, '\uFFFD'));

/** `row` with every string value made storable: `row` itself when all are (every call log passes here), else a copy. */
export function storableRow<T extends object>(row: T): T {
  const values = row as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  // for…in, not Object.entries: entries() allocated a pair per column.
  for (const k in values) {
    const v = values[k];
    // Most of a call log's texts are empty: no pattern to run on those.
    if (typeof v === 'string' && v !== '' && !isStorable(v)) (out ??= { ...values })[k] = storable(v);
  }
  return (out ?? row) as T;
}
