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
