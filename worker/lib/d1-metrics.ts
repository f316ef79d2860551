/**
 * Measures what D1 costs per request for the benchmarks (bench/, issues 8 and 30). Enabled only when D1_METRICS=true
 * (never in production): the request gets a measuring wrapper around its DB binding, and the answer says what it cost
 * in headers: x-d1-round-trips (each first/all/run/raw/exec, and each batch however many statements), x-d1-statements,
 * x-d1-ms (wall time the worker waited on D1, summed over round trips), x-d1-duration-ms (D1's own result meta.duration,
 * summed), x-d1-rows-read and x-d1-rows-written (D1's result meta). Durable Object alarms measure into the same tallies
 * (lib/run-metrics.ts) so a benchmark can add up a purchase over its whole life.
 *
 * Why two times: D1's meta.duration is the database's own time for the statement, the figure Cloudflare's limits are
 * stated in. Locally miniflare takes it with performance.now() around a synchronous SQLite call, and workerd's clock
 * does not move during synchronous work, so locally it reads 0 (or 1 when a millisecond tick happens to fall inside).
 * The wall time around each awaited call moves (the clock advances at I/O), so locally it is the figure to read: an
 * upper bound on the database's time (it includes the hop to the local D1 object and any queue in front of it).
 *
 * meta comes with run(), all() and batch(); first() is served through all() (same statement, one round trip) to read
 * its meta; raw(), which drizzle uses for every select, discards meta in the public API, so it is sent through the
 * binding's own internal query call (the one raw() makes itself) and counted as unmeasured if that is not there.
 */
const UNWRAP = Symbol("unwrap");

export interface D1Tally {
  /** Round trips to D1: a batch is one. */
  count: number;
  statements: number;
  /** Wall time the caller waited on D1, ms. */
  waitMs: number;
  /** D1's own meta.duration, ms. */
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
  /** Round trips whose meta could not be read (raw() without the internal call). */
  unmeasured: number;
}

/** Kept for the round-trip figures of issue 8: a tally is a counter with more fields. */
export type RoundTripCounter = D1Tally;

export function newTally(): D1Tally {
  return { count: 0, statements: 0, waitMs: 0, durationMs: 0, rowsRead: 0, rowsWritten: 0, unmeasured: 0 };
}

export interface D1Meta {
  duration?: number;
  rows_read?: number;
  rows_written?: number;
}

/**
 * Sees every statement with its SQL and D1's meta (undefined when it could not be read), so a benchmark can say where
 * the D1 time goes per statement (lib/run-metrics.ts d1ByStatement, issue 30).
 */
export interface StatementObserver {
  observe(sql: string, meta: D1Meta | undefined): void;
}

type Sink = D1Tally | StatementObserver;

/** The internal query call D1's raw() makes (workerd's d1-api: D1DatabaseSession._sendOrThrow), when present. */
interface RawInternals {
  dbSession?: { _sendOrThrow?: (endpoint: string, sql: string, params: unknown[], format: string) => Promise<unknown> };
  statement?: string;
  params?: unknown[];
}

/** A prepared statement's SQL text (workerd keeps it as `statement`), for the per-statement breakdown. */
function sqlOf(stmt: unknown): string {
  const text = (stmt as { statement?: unknown }).statement;
  return typeof text === "string" ? text : "?";
}

export function countingD1(db: D1Database, ...sinks: Sink[]): D1Database {
  const tallies = sinks.filter((s): s is D1Tally => !("observe" in s));
  const observers = sinks.filter((s): s is StatementObserver => "observe" in s);
  const add = (statements: number, waitMs: number, metas: (D1Meta | undefined)[], sqls: string[]) => {
    for (const o of observers) metas.forEach((m, i) => o.observe(sqls[i] ?? "?", m));
    for (const t of tallies) {
      t.count += 1;
      t.statements += statements;
      t.waitMs += waitMs;
      for (const m of metas) {
        if (!m) {
          t.unmeasured += 1;
          continue;
        }
        t.durationMs += m.duration ?? 0;
        t.rowsRead += m.rows_read ?? 0;
        t.rowsWritten += m.rows_written ?? 0;
      }
    }
  };
  const timed = async <T>(sqls: string[], call: () => Promise<T>, metaOf: (result: T) => (D1Meta | undefined)[]): Promise<T> => {
    const t0 = performance.now();
    const result = await call();
    add(sqls.length, performance.now() - t0, metaOf(result), sqls);
    return result;
  };
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop, receiver) {
        if (prop === UNWRAP) return target;
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (prop === "run" || prop === "all") {
          return () => timed([sqlOf(target)], () => value.apply(target, []) as Promise<D1Result>, (r) => [r.meta as D1Meta]);
        }
        if (prop === "first") {
          return async (column?: string) => {
            const result = await timed([sqlOf(target)], () => target.all<Record<string, unknown>>(), (r) => [r.meta as D1Meta]);
            const row = result.results[0] ?? null;
            if (column === undefined) return row;
            return row ? (row[column] ?? null) : null;
          };
        }
        if (prop === "raw") {
          return async (options?: { columnNames?: boolean }) => {
            const internals = target as unknown as RawInternals;
            const send = internals.dbSession?._sendOrThrow;
            if (!send || typeof internals.statement !== "string") {
              return timed([sqlOf(target)], () => value.apply(target, [options]) as Promise<unknown[]>, () => [undefined]);
            }
            const reply = await timed(
              [internals.statement],
              () => send.call(internals.dbSession, "/query", internals.statement!, internals.params ?? [], "ROWS_AND_COLUMNS"),
              (r) => [(Array.isArray(r) ? r[0] : r)?.meta as D1Meta | undefined],
            );
            const one = (Array.isArray(reply) ? reply[0] : reply) as { results: { columns: string[]; rows: unknown[][] } };
            return options?.columnNames ? [one.results.columns, ...one.results.rows] : one.results.rows;
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
        return (statements: D1PreparedStatement[]) =>
          timed(
            statements.map(sqlOf),
            // The batch must receive the real statements, not the proxies.
            () => value.call(target, statements.map((s) => (s as unknown as { [UNWRAP]?: D1PreparedStatement })[UNWRAP] ?? s)) as Promise<D1Result[]>,
            (results) => results.map((r) => r.meta as D1Meta),
          );
      }
      if (prop === "exec") {
        return (sql: string) => timed([sql], () => value.call(target, sql) as Promise<D1ExecResult>, () => [undefined]);
      }
      return value.bind(target);
    },
  });
}

/** The tally as response headers (see the file comment). */
export function tallyHeaders(tally: D1Tally): Record<string, string> {
  return {
    "x-d1-round-trips": String(tally.count),
    "x-d1-statements": String(tally.statements),
    "x-d1-ms": tally.waitMs.toFixed(2),
    "x-d1-duration-ms": tally.durationMs.toFixed(2),
    "x-d1-rows-read": String(tally.rowsRead),
    "x-d1-rows-written": String(tally.rowsWritten),
  };
}

/**
 * The env a sandbox simulator runs with: the uncounted DB. The simulators stand in for upstreams reached over HTTP in
 * production, so the D1 they use for their own state is not a round trip the product pays for.
 */
export function withoutD1Counting<E extends { DB: D1Database }>(env: E): E {
  const raw = (env.DB as unknown as { [UNWRAP]?: D1Database })[UNWRAP];
  return raw ? { ...env, DB: raw } : env;
}
