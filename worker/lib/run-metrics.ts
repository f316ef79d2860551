import { newTally, type D1Meta, type D1Tally, type StatementObserver } from "./d1-metrics";

/**
 * What the product spent while a benchmark ran (bench/rate.ts, issue 30), read and reset through the sandbox-only
 * /sandbox/metrics route. Counted only when D1_METRICS=true (never in production; config refuses nothing here, the
 * worker simply never turns it on there): D1 per source (HTTP requests to /api, Durable Objects: their alarms and calls), Durable Object
 * requests by object kind, alarms set and run, and upstream calls by account and action.
 *
 * Module state, so it covers what one isolate served. Locally `npm start` runs the worker and its Durable Objects in
 * one workerd isolate, so this is everything the local server did; it is not a production metric (Workers Analytics
 * and D1's own metrics are, docs/SCALE.md).
 */
export interface RunMetrics {
  since: number;
  d1: { api: D1Tally; objects: D1Tally };
  /** Requests to a Durable Object from the worker (RPC calls and fetches), by object kind. */
  doRequests: Record<string, number>;
  alarmsSet: number;
  alarmsRun: number;
  /** Calls to an upstream's API, by account and action ("swift getStatus"). */
  upstreamCalls: Record<string, number>;
  /**
   * The same calls by the activation they served ("swift 123"), so a benchmark can take the median per delivered
   * order: a call naming one activation counts 1 for it; a batch status call counts 1/N for each of the N it answered.
   */
  upstreamCallsByActivation: Record<string, number>;
  /**
   * D1 per statement and the request kind that sent it ("POST /api/sms/get-number", "SmsOrderPoller"), keyed
   * `kind\tSQL`: where a purchase-equivalent's D1 time goes (issue 30; bench/rate-core.ts prints the breakdown).
   */
  d1ByStatement: Record<string, StatementTally>;
}

export interface StatementTally {
  n: number;
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
}

let enabled = false;
let metrics: RunMetrics = fresh();

function fresh(): RunMetrics {
  return { since: Date.now(), d1: { api: newTally(), objects: newTally() }, doRequests: {}, alarmsSet: 0, alarmsRun: 0, upstreamCalls: {}, upstreamCallsByActivation: {}, d1ByStatement: {} };
}

/** Turned on by the worker's entry and each Durable Object when their env says D1_METRICS=true (and not production). */
export function enableRunMetrics(env: { D1_METRICS?: string; APP_ENV?: string }): boolean {
  if (env.D1_METRICS === "true" && env.APP_ENV !== "production") enabled = true;
  return enabled;
}

export function runMetricsEnabled(): boolean {
  return enabled;
}

export function readRunMetrics(): RunMetrics {
  return structuredClone(metrics);
}

export function resetRunMetrics(): void {
  metrics = fresh();
}

/**
 * Counting off and the counts gone, as in a new isolate: enabling is sticky per isolate (a request with D1_METRICS=true
 * turns it on for every later one), and the worker tests share one isolate across files (decision 054), so their setup
 * calls this between files. A counted request's D1 goes through the measuring wrapper, which a test's own D1 proxy
 * would not see.
 */
export function stopRunMetrics(): void {
  enabled = false;
  metrics = fresh();
}

/** The tally a source's D1 use adds to (only meaningful while enabled). */
export function d1TallyFor(source: keyof RunMetrics["d1"]): D1Tally {
  return metrics.d1[source];
}

/** Long SQL (a wide insert, a long IN list) is cut so one statement's shape is one key. */
const SQL_KEY_CHARS = 240;

/** Adds each statement a request kind sends to d1ByStatement (only while enabled). */
export function statementObserver(kind: string): StatementObserver {
  return {
    observe(sql: string, meta: D1Meta | undefined) {
      if (!enabled) return;
      const key = `${kind}\t${sql.replace(/\s+/g, " ").trim().slice(0, SQL_KEY_CHARS)}`;
      const t = (metrics.d1ByStatement[key] ??= { n: 0, durationMs: 0, rowsRead: 0, rowsWritten: 0 });
      t.n += 1;
      t.durationMs += meta?.duration ?? 0;
      t.rowsRead += meta?.rows_read ?? 0;
      t.rowsWritten += meta?.rows_written ?? 0;
    },
  };
}

/** A request's kind for the breakdown: method and path, with ids (any segment holding a digit) as :id. */
export function requestKind(method: string, pathname: string): string {
  return `${method} ${pathname.replace(/\/+$/, "").split("/").map((seg) => (/\d/.test(seg) ? ":id" : seg)).join("/")}`;
}

export function noteDoRequest(kind: string): void {
  if (enabled) metrics.doRequests[kind] = (metrics.doRequests[kind] ?? 0) + 1;
}

export function noteAlarmSet(): void {
  if (enabled) metrics.alarmsSet += 1;
}

export function noteAlarmRun(): void {
  if (enabled) metrics.alarmsRun += 1;
}

export function noteUpstreamCall(account: string, action: string, activations: readonly string[] = []): void {
  if (enabled) {
    const key = `${account} ${action}`;
    metrics.upstreamCalls[key] = (metrics.upstreamCalls[key] ?? 0) + 1;
    for (const id of activations) {
      const one = `${account} ${id}`;
      metrics.upstreamCallsByActivation[one] = (metrics.upstreamCallsByActivation[one] ?? 0) + 1 / activations.length;
    }
  }
}
