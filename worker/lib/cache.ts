/**
 * The worker's two in-memory caches (issue 14: one shape instead of hand-written ones in each service). Both live per
 * isolate: nothing here is shared between isolates or survives a deploy, so each is only ever a shortcut past a read
 * whose answer may be a little old (settings, upstream health, price and currency lists) or is a pure function of
 * its key (the parsed config of an env object).
 */

/**
 * Every TtlCache this isolate made (each is a module-level constant, so the set stays as small as the list of caches).
 * The worker tests share one isolate across test files (vitest.config.ts, decision 054): worker/test/setup.ts empties
 * them all after each test, so no test reads a price, setting or status another test left cached.
 */
const everyCache = new Set<{ clear(): void }>();

/**
 * Forgets every cached entry in this isolate, so the next read of each goes to its source (the worker tests call it
 * between tests: one isolate serves many test files, decision 054).
 */
export function clearEveryCache(): void {
  for (const cache of everyCache) cache.clear();
}

/**
 * Entries that live ttlMs from when they were stored. A stored promise that rejects is dropped at once (the next call
 * loads again instead of serving the failure for ttlMs); while it is pending, concurrent callers share it.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { at: number; value: V }>();

  constructor(
    private readonly ttlMs: number,
    // Read at each call (not Date.now captured once), so a test's fake clock moves the caches too.
    private readonly now: () => number = () => Date.now(),
  ) {
    everyCache.add(this);
  }

  /** The entry when it is younger than ttlMs. */
  get(key: K): { value: V } | undefined {
    const hit = this.entries.get(key);
    return hit && this.now() - hit.at < this.ttlMs ? { value: hit.value } : undefined;
  }

  set(key: K, value: V, at = this.now()): void {
    this.entries.set(key, { at, value });
    if (value instanceof Promise) {
      value.catch(() => {
        if (this.entries.get(key)?.value === value) this.entries.delete(key);
      });
    }
  }

  /** The fresh entry, or load()'s answer stored for ttlMs. */
  getOrLoad(key: K, load: () => V): V {
    const hit = this.get(key);
    if (hit) return hit.value;
    const value = load();
    this.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * compute(key) once per key object, kept as long as the key lives (a WeakMap): the parsed configuration, a sandbox
 * account's bindings and the rooms' routable bindings are each derived once per isolate's env.
 */
export function memoizeByObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const values = new WeakMap<K, V>();
  return (key) => {
    if (values.has(key)) return values.get(key)!;
    const value = compute(key);
    values.set(key, value);
    return value;
  };
}
