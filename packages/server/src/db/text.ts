// Text the database can keep as written: PostgreSQL refuses a NUL byte in a text value (the whole
// statement fails), and a lone UTF-16 surrogate has no UTF-8 form at all. Console input with either
// is refused (http/validate.ts); records of what clients and upstreams sent (call logs, tasks) keep
// the rest of the text with U+FFFD in their place, so one hostile request cannot fail a batch write.

/** Native scans, not a pattern: a one-byte string has no surrogates to look at (~20 ns a string, the lookbehind pattern ~130). */
export const isStorable = (text: string): boolean => !text.includes('\0') && text.isWellFormed();

/** toWellFormed() puts U+FFFD in place of each lone surrogate; NUL gets the same. */
export const storable = (text: string): string => (isStorable(text) ? text : text.toWellFormed().replaceAll('\0', '\uFFFD'));

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
