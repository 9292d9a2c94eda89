/**
 * A bounded map of what is a pure function of its key while the service runs (the register does not change
 * under a running process). Past `max` entries the oldest tenth is dropped (computed again when asked).
 * The caller's key must name every input (`JSON.stringify` of them: no separator can make two inputs one key).
 */
export class BoundedMap<V> {
  private readonly kept = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.kept.get(key);
  }

  set(key: string, value: V): void {
    if (this.kept.size >= this.max) {
      // insertion order: the first keys are the oldest
      let drop = Math.ceil(this.max / 10);
      for (const old of this.kept.keys()) {
        if (drop-- === 0) break;
        this.kept.delete(old);
      }
    }
    this.kept.set(key, value);
  }

  delete(key: string): void {
    this.kept.delete(key);
  }
}

/** A `BoundedMap` of computed values: the value of `key`, computed (and kept) the first time it is asked. */
export function boundedCache<V>(max: number): (key: string, compute: () => V) => V {
  const kept = new BoundedMap<V>(max);
  return (key, compute) => {
    let value = kept.get(key);
    if (value === undefined) kept.set(key, (value = compute()));
    return value;
  };
}

/**
 * A `BoundedMap` of promised answers: the same municipality, street prefix or street's numbers are asked on
 * every keystroke of every session. A failed answer is not kept.
 */
export function boundedMemo<V>(max: number): (key: string, compute: () => Promise<V>) => Promise<V> {
  const kept = new BoundedMap<Promise<V>>(max);
  return (key, compute) => {
    let value = kept.get(key);
    if (value) return value;
    const computed = compute();
    kept.set(key, computed);
    computed.catch(() => {
      if (kept.get(key) === computed) kept.delete(key);
    });
    return computed;
  };
}
