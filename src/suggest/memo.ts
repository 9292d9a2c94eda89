/**
 * A bounded memo of promised answers for what is a pure function of its key while the service runs (the
 * register does not change under a running process): the same municipality, street prefix or street's
 * numbers are asked on every keystroke of every session. Past `max` entries the oldest tenth is dropped
 * (computed again when asked); a failed answer is not kept. The caller's key must name every input
 * (`JSON.stringify` of them: no separator can make two inputs one key).
 */
export function boundedMemo<V>(max: number): (key: string, compute: () => Promise<V>) => Promise<V> {
  const kept = new Map<string, Promise<V>>();
  return (key, compute) => {
    let value = kept.get(key);
    if (value) return value;
    if (kept.size >= max) {
      // insertion order: the first keys are the oldest
      let drop = Math.ceil(max / 10);
      for (const old of kept.keys()) {
        if (drop-- === 0) break;
        kept.delete(old);
      }
    }
    const computed = compute();
    kept.set(key, computed);
    computed.catch(() => {
      if (kept.get(key) === computed) kept.delete(key);
    });
    return computed;
  };
}
