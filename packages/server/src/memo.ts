// Values derived from keys that are few in practice (URLs sent to, breaker ids, statement texts) but that
// nothing in the code bounds: kept by key, and started over at `max` entries rather than grown without end.
export function boundedMemo<K, V>(max: number, make: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.clear();
      kept.set(key, (value = make(key)));
    }
    return value;
  };
}

/**
 * A value derived from an object, made once and kept as long as the object lives (a WeakMap): for the
 * objects a call reuses call after call (snapshot rows, the accounts a key charges), whose derived strings
 * would otherwise be built and hashed anew on every look-up.
 */
export function keptWith<T extends object, V>(make: (of: T) => V): (of: T) => V {
  const kept = new WeakMap<T, V>();
  return (of) => {
    let value = kept.get(of);
    if (value === undefined) kept.set(of, (value = make(of)));
    return value;
  };
}

/**
 * boundedMemo for long texts that arrive as new strings every time (statement texts posted to the SQLite
 * writer thread, ~30 KB for a 100-row insert): a Map hashes a new string whole on each look-up, where
 * finding the few entries of the same length and comparing them costs a fraction of that.
 */
export function boundedTextMemo<V>(max: number, make: (text: string) => V): (text: string) => V {
  const byLength = new Map<number, { text: string; value: V }[]>();
  let size = 0;
  return (text) => {
    for (const kept of byLength.get(text.length) ?? []) if (kept.text === text) return kept.value;
    if (size >= max) {
      byLength.clear();
      size = 0;
    }
    const value = make(text);
    const same = byLength.get(text.length);
    if (same) same.push({ text, value });
    else byLength.set(text.length, [{ text, value }]);
    size++;
    return value;
  };
}
