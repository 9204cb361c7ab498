/**
 * `compute` remembered by key, for values that many calls share (SQL texts, classification texts,
 * expiry dates). Emptied when it holds `limit` keys, so unusual data costs recomputing, never
 * memory.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const held = new Map<K, V>();
  return (key) => {
    let value = held.get(key);
    if (value === undefined) {
      if (held.size >= limit) held.clear();
      held.set(key, (value = compute(key)));
    }
    return value;
  };
}
