/**
 * Counts D1 round trips per request for the benchmark (bench/, issue 8). Enabled only when D1_METRICS=true (never in
 * production): the request gets a counting wrapper around its DB binding and the answer says how many round trips it
 * cost in an x-d1-round-trips header.
 */
const UNWRAP = Symbol("unwrap");

export interface RoundTripCounter {
  count: number;
}

export function countingD1(db: D1Database, counter: RoundTripCounter): D1Database {
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop, receiver) {
        if (prop === UNWRAP) return target;
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
          return (...args: unknown[]) => {
            counter.count += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === UNWRAP) return target;
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => wrapStatement(value.call(target, sql));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counter.count += 1;
          // The batch must receive the real statements, not the proxies.
          return value.call(target, statements.map((s) => (s as unknown as { [UNWRAP]?: D1PreparedStatement })[UNWRAP] ?? s));
        };
      }
      if (prop === "exec") {
        return (sql: string) => {
          counter.count += 1;
          return value.call(target, sql);
        };
      }
      return value.bind(target);
    },
  });
}


/**
 * The env a sandbox simulator runs with: the uncounted DB. The simulators stand in for upstreams reached over HTTP in
 * production, so the D1 they use for their own state is not a round trip the product pays for.
 */
export function withoutD1Counting<E extends { DB: D1Database }>(env: E): E {
  const raw = (env.DB as unknown as { [UNWRAP]?: D1Database })[UNWRAP];
  return raw ? { ...env, DB: raw } : env;
}
