
/**
 * The constant-rate benchmark (issue 30), free of Node so the same code runs from `npm run bench:rate` (bench/rate.ts,
 * against the local server) and as its smoke run inside the worker tests (worker/test/rate-bench.smoke.test.ts,
 * against the worker in workerd). Everything it needs comes in through RateOptions: how to fetch and where to log; the
 * server's own counters, open orders and invariants come through its sandbox routes (/sandbox/metrics/*).
 *
 * What it does: funds many customers through the sandbox checkout; then, step by step, starts purchases at a constant
 * arrival rate (not a burst) with the real mix around them (codes arriving by poll and by DaisySMS's push, timeouts
 * and upstream errors refunded, cancels, card webhooks and their replays, one balance-or-orders read per purchase by
 * the open dashboards), never more than `maxInFlight` requests at once so wrangler's proxy is never the bottleneck (an
 * arrival that finds the bound full is counted as "not sent"); reads the server's own counters after each step
 * (/sandbox/metrics: D1 per source, Durable Object requests, alarms, upstream calls, slots in use); drains; then runs
 * the money invariants over every row.
 */

export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export interface RateOptions {
  base: string;
  fetch: Fetch;
  /** Purchases per second, one step each. */
  steps: number[];
  stepSeconds: number;
  customers: number;
  fundNaira: number;
  maxInFlight: number;
  /** Squad's webhook key, to replay a signed webhook as Squad would resend it (null: replays are skipped). */
  squadSecret: string | null;
  log: (line: string) => void;
  /** How long to wait after the last step for every order to settle (codes, timeouts, refunds). */
  drainSeconds: number;
  /** Raise the simulators' slot limits for the run (our own ceiling), or keep the documented ones. */
  raiseSlotLimits: boolean;
  /** The sms_poll setting for the run (null: the server's own, 6 s x 15 in production). */
  poll: { interval_ms: number; max_attempts: number } | null;
  /** When the sandbox upstream holds a code after purchase (the server's SANDBOX_SMS_DELAY_MS), for the push timing. */
  codeDelayMs: number;
  slotSampleMs: number;
}

interface D1Figures {
  roundTrips: number;
  statements: number;
  waitMs: number;
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
}

interface Sample {
  step: number;
  kind: "purchase" | "read" | "cancel" | "push" | "fund" | "webhook";
  status: number;
  ms: number;
  d1: D1Figures | null;
}

interface Tally {
  count: number;
  statements: number;
  waitMs: number;
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
  unmeasured: number;
}

/** /sandbox/metrics (worker/sandbox/metrics.ts). */
interface ServerMetrics {
  enabled: boolean;
  d1: { api: Tally; objects: Tally };
  doRequests: Record<string, number>;
  alarmsSet: number;
  alarmsRun: number;
  upstreamCalls: Record<string, number>;
  upstreamCallsByActivation: Record<string, number>;
  /** `kind\tSQL` -> that statement's count and D1 meta (worker/lib/run-metrics.ts). */
  d1ByStatement: Record<string, StatementTally>;
  slots: Record<string, { limit: number | null; documented: number | null; inUse: number }>;
}

interface StatementTally {
  n: number;
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
}

/** One line of the D1 breakdown, per purchase of the step: a request kind, or one statement of it. */
export interface D1Share {
  kind: string;
  sql?: string;
  statements: number;
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
}

export interface StepReport {
  target: number;
  seconds: number;
  achieved: number;
  purchases: { sent: number; ok: number; notSent: number };
  latency: { purchase: Percentiles; read: Percentiles };
  byStatus: Record<string, number>;
  nonClientErrors: number;
  perPurchase: D1Figures | null;
  perPurchaseEquivalent: { d1WaitMs: number; d1DurationMs: number; statements: number; rowsRead: number; rowsWritten: number } | null;
  /** Where the step's D1 went, per purchase: by request kind (API route or Durable Object), and by statement. */
  d1ByKind: D1Share[];
  d1ByStatement: D1Share[];
  slots: Record<string, { max: number; mean: number; rate: number }>;
}

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface RateReport {
  slotLimits: Record<string, { limit: number | null; documented: number | null }>;
  steps: StepReport[];
  life: { orders: number; settled: number; doRequestsPerOrder: number; alarmsSetPerOrder: number; alarmsRunPerOrder: number; upstreamCallsPerOrder: Record<string, number> };
  /**
   * Upstream calls per delivered order (a code reached the customer), per upstream: every call that named the order's
   * activation (its purchase, status reads, the push's confirming read, completion), a batch call's share (1/N of the
   * N it answered), plus the completion still due for a number inside its "another code" window. DaisySMS is also split
   * by whether its code was pushed (the webhook) or found by the fallback poll.
   */
  callsPerDeliveredOrder: Record<string, { delivered: number; median: number; mean: number; p95: number; completionsDue: number }>;
  ceiling: {
    fromWallMs: number | null;
    fromDuration: number | null;
    fromModel: number | null;
    d1WaitMsPerEquivalent: number | null;
    d1DurationMsPerEquivalent: number | null;
    statementsPerEquivalent: number | null;
  };
  upstreamBound: Record<string, { holdSeconds: number | null; perAccount: number | null; wholeMix: number | null }>;
  invariants: Record<string, number>;
  ok: boolean;
}

/** The purchase mix, by i % 20 (see MIX_SHARES in the output). Swift is DaisySMS (USA), Dynamic is sms-man. */
type MixEntry = { provider: "Swift" | "Dynamic"; country: string; service: string; push?: boolean; cancelAfterMs?: number; label: string; upstream?: "herosms" };
const SWIFT_CODE: MixEntry = { provider: "Swift", country: "5", service: "wa", label: "Swift code (poll)" };
const SWIFT_PUSH: MixEntry = { ...SWIFT_CODE, push: true, label: "Swift code (push)" };
const DYNAMIC_CODE: MixEntry = { provider: "Dynamic", country: "12", service: "1", label: "Dynamic code" };
/**
 * Dynamic SMS in the United Kingdom is routed to HeroSMS for the run (setting sms_routes, HEROSMS_ROUTES below): its
 * codes are read by one getActiveActivations per account per tick (decision 051), so its calls per delivered order
 * are measured beside the others.
 */
const HERO_CODE: MixEntry = { provider: "Dynamic", country: "11", service: "1", upstream: "herosms", label: "HeroSMS code (batch status)" };
export const HEROSMS_ROUTES = { Swift: { upstreams: ["daisysms"] }, Dynamic: { upstreams: ["smsman"], countries: { "11": ["herosms"] } } };
const SWIFT_NO_SMS: MixEntry = { provider: "Swift", country: "5", service: "sbxnosms", label: "Swift timeout + refund" };
const DYNAMIC_ERROR: MixEntry = { provider: "Dynamic", country: "12", service: "91", label: "Dynamic upstream error + refund" };
const SWIFT_CANCEL: MixEntry = { ...SWIFT_CODE, cancelAfterMs: 1000, label: "Swift cancelled" };
const DYNAMIC_CANCEL: MixEntry = { ...DYNAMIC_CODE, service: "2", cancelAfterMs: 1000, label: "Dynamic cancelled" };
// Interleaved, so every kind comes early and evenly in a step (a short or loaded run that sends only the first few
// purchases still has each upstream; the smoke run asserts each): 5 Swift codes by poll, 4 by push, 3 sms-man codes,
// 2 HeroSMS codes, 2 Swift time-outs, 1 sms-man error, 2 Swift cancels, 1 sms-man cancel.
export const MIX: MixEntry[] = [
  SWIFT_CODE, SWIFT_PUSH, DYNAMIC_CODE, HERO_CODE, SWIFT_CANCEL,
  SWIFT_CODE, SWIFT_PUSH, DYNAMIC_CODE, SWIFT_NO_SMS, DYNAMIC_ERROR,
  SWIFT_CODE, SWIFT_PUSH, HERO_CODE, DYNAMIC_CANCEL, SWIFT_CODE,
  SWIFT_PUSH, DYNAMIC_CODE, SWIFT_NO_SMS, SWIFT_CANCEL, SWIFT_CODE,
];

/** Cloudflare: a D1 database runs one query at a time, about 1,000 queries/s at 1 ms each; we plan for half of that. */
const D1_MS_PER_SECOND_AT_HALF = 500;
const MODEL_MS_PER_QUERY = 1;

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function hmacSha512Hex(key: string, body: string): Promise<string> {
  const k = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(body)));
  return Array.from(sig, (b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
}

function d1Of(res: Response): D1Figures | null {
  const rt = res.headers.get("x-d1-round-trips");
  if (rt === null) return null;
  const n = (name: string) => Number(res.headers.get(name) ?? 0);
  return {
    roundTrips: Number(rt),
    statements: n("x-d1-statements"),
    waitMs: n("x-d1-ms"),
    durationMs: n("x-d1-duration-ms"),
    rowsRead: n("x-d1-rows-read"),
    rowsWritten: n("x-d1-rows-written"),
  };
}

function addMetrics(into: ServerMetrics | null, m: ServerMetrics): ServerMetrics {
  if (!into) return { ...structuredClone(m), upstreamCallsByActivation: { ...(m.upstreamCallsByActivation ?? {}) }, d1ByStatement: structuredClone(m.d1ByStatement ?? {}) };
  const addTally = (a: Tally, b: Tally) => {
    for (const k of Object.keys(a) as (keyof Tally)[]) a[k] += b[k];
  };
  addTally(into.d1.api, m.d1.api);
  addTally(into.d1.objects, m.d1.objects);
  for (const [k, v] of Object.entries(m.doRequests)) into.doRequests[k] = (into.doRequests[k] ?? 0) + v;
  for (const [k, v] of Object.entries(m.upstreamCalls)) into.upstreamCalls[k] = (into.upstreamCalls[k] ?? 0) + v;
  for (const [k, v] of Object.entries(m.upstreamCallsByActivation ?? {})) into.upstreamCallsByActivation[k] = (into.upstreamCallsByActivation[k] ?? 0) + v;
  for (const [k, v] of Object.entries(m.d1ByStatement ?? {})) {
    const t = (into.d1ByStatement[k] ??= { n: 0, durationMs: 0, rowsRead: 0, rowsWritten: 0 });
    t.n += v.n;
    t.durationMs += v.durationMs;
    t.rowsRead += v.rowsRead;
    t.rowsWritten += v.rowsWritten;
  }
  into.alarmsSet += m.alarmsSet;
  into.alarmsRun += m.alarmsRun;
  into.slots = m.slots;
  return into;
}

export async function runRate(opts: RateOptions): Promise<RateReport> {
  const { base, log } = opts;
  const samples: Sample[] = [];
  const firstFailure = new Map<number, string>();
  let inFlight = 0;
  let step = -1;

  const call = async (kind: Sample["kind"], path: string, init: { token?: string; json?: unknown; headers?: Record<string, string>; body?: string; method?: string } = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    inFlight += 1;
    const t0 = Date.now();
    let status = 0;
    let data: unknown = null;
    let d1: D1Figures | null = null;
    try {
      const res = await opts.fetch(`${base}${path}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body });
      const text = await res.text();
      status = res.status;
      d1 = d1Of(res);
      try {
        data = text ? JSON.parse(text) : null;
      } catch {
        data = text;
      }
    } catch (err) {
      data = err instanceof Error ? err.message : String(err);
    } finally {
      inFlight -= 1;
    }
    if (step >= 0) samples.push({ step, kind, status, ms: Date.now() - t0, d1 });
    if ((status === 0 || status >= 500) && !firstFailure.has(status)) firstFailure.set(status, `${kind} ${path}: ${JSON.stringify(data).slice(0, 200)}`);
    return { status, data: data as Record<string, unknown> | null };
  };
  const must = async (what: string, path: string, init: Parameters<typeof call>[2] = {}) => {
    const res = await call("fund", path, init);
    if (res.status < 200 || res.status >= 300) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`);
    return res.data ?? {};
  };
  // Read and reset in one request: a count made between a read and a separate reset would be lost.
  const metrics = async (reset: boolean): Promise<ServerMetrics> =>
    (reset
      ? await must("reading and resetting /sandbox/metrics", "/sandbox/metrics/reset", { json: {} })
      : await must("reading /sandbox/metrics", "/sandbox/metrics")) as unknown as ServerMetrics;

  // --- set-up: upstream money and slot limits, polling, customers ---------------------------------------------------
  await must("funding the simulated DaisySMS account", "/sandbox/upstreams/balance", { json: { account: "swift", amount: 1_000_000 } });
  await must("funding the simulated sms-man account", "/sandbox/upstreams/balance", { json: { account: "smsman", amount: 10_000_000 } });
  const slots = (await must("setting slot limits", "/sandbox/upstreams/slots", {
    json: { account: "swift", limit: opts.raiseSlotLimits ? null : "documented" },
  })) as unknown as ServerMetrics["slots"];
  const slotLimits = Object.fromEntries(Object.entries(slots).map(([k, v]) => [k, { limit: v.limit, documented: v.documented }]));
  log(
    `upstream slot limits for this run (sandbox setting POST /sandbox/upstreams/slots): ${Object.entries(slotLimits)
      .map(([k, v]) => `${k} ${v.limit ?? "none"} (documented: ${v.documented ?? "none"})`)
      .join(", ")}${opts.raiseSlotLimits ? " — RAISED to find our own ceiling" : ""}`,
  );
  if (opts.poll) await must("setting sms_poll", "/sandbox/settings/sms_poll", { json: opts.poll });
  await must("routing Dynamic SMS in the UK to HeroSMS", "/sandbox/settings/sms_routes", { json: HEROSMS_ROUTES });

  log(`funding ${opts.customers} customers with ₦${opts.fundNaira} each through the sandbox checkout...`);
  const customers: { token: string; email: string }[] = [];
  let nextCustomer = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, opts.customers) }, async () => {
      while (nextCustomer < opts.customers) {
        const i = nextCustomer++;
        const email = `rate-${i}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
        const reg = await must("register", "/api/register/", { json: { username: `rate${i}`, number: "08012345678", email, password: "ratebench123" } });
        const token = String(reg.token);
        await fundOnce(token, opts.fundNaira, false);
        customers.push({ token, email });
      }
    }),
  );

  async function fundOnce(token: string, naira: number, replay: boolean): Promise<void> {
    const init = await call("fund", "/api/initialize-transaction", { token, json: { amount: naira, currency: "NGN" } });
    // The checkout's answer is { data: { data: { checkout_url, transaction_ref } } } (decision 032: as the original client reads it).
    const ref = (init.data?.data as { data?: { transaction_ref?: string } } | undefined)?.data?.transaction_ref;
    if (!ref) {
      if (!replay) throw new Error(`initialize-transaction failed: ${init.status} ${JSON.stringify(init.data).slice(0, 200)}`);
      return;
    }
    const done = await call("webhook", `/sandbox/squad/${ref}/complete`, { json: { outcome: "success" } });
    if (!replay) {
      if (done.status !== 200) throw new Error(`sandbox checkout failed: ${done.status}`);
      return;
    }
    if (!opts.squadSecret) return;
    const email = customers.find((c) => c.token === token)?.email ?? "";
    const raw = JSON.stringify({
      Event: "charge_successful",
      TransactionRef: ref,
      Body: { amount: naira * 100, transaction_ref: ref, transaction_status: "Success", email, currency: "NGN" },
    });
    const sig = await hmacSha512Hex(opts.squadSecret, raw);
    // Squad resends a webhook it thinks was missed: the same signed body, twice here. Credited once (decision 015).
    for (let r = 0; r < 2; r++) await call("webhook", "/api/webhooks/squad", { body: raw, headers: { "content-type": "application/json", "x-squad-encrypted-body": sig } });
  }

  const first = await metrics(true);
  if (!first.enabled) throw new Error("the server does not count (start it with D1_METRICS=true: bench/rate.ts does)");

  // --- the steps --------------------------------------------------------------------------------------------------
  const orders: { id: string; provider: string; account: Account; step: number; pushed: boolean }[] = [];
  const pending: Promise<unknown>[] = [];
  const stepMetrics: ServerMetrics[] = [];
  const slotSamples: { step: number; inUse: Record<string, number> }[] = [];
  const notSent: number[] = [];
  let purchaseNo = 0;
  let readNo = 0;

  const purchase = async (token: string, entry: MixEntry) => {
    const res = await call("purchase", "/api/sms/get-number", { token, json: { provider: entry.provider, country: entry.country, service: entry.service } });
    const id = (res.data?.phone as { request_id?: string } | undefined)?.request_id;
    if (res.status !== 200 || !id) return;
    const at = step;
    orders.push({ id, provider: entry.provider, account: accountOf(entry), step: at, pushed: entry.push === true });
    if (entry.cancelAfterMs !== undefined) {
      await sleep(entry.cancelAfterMs);
      await call("cancel", "/api/sms/cancel", { token, json: { request_id: id } });
    } else if (entry.push) {
      await sleep(opts.codeDelayMs + 300);
      await call("push", `/sandbox/sms/orders/${id}/push`, { json: {} });
    }
  };

  for (const [s, rate] of opts.steps.entries()) {
    step = s;
    notSent[s] = 0;
    const started = Date.now();
    const end = started + opts.stepSeconds * 1000;
    const interval = 1000 / rate;
    const fundEvery = Math.max(1, Math.round(rate * opts.stepSeconds / 4)) ; // about 4 card payments per step, each replayed
    let k = 0;
    let nextSlotSample = started;
    log(`step ${s + 1}: ${rate} purchases/s for ${opts.stepSeconds} s...`);
    while (Date.now() < end) {
      const now = Date.now();
      while (started + k * interval <= now && started + k * interval < end) {
        const i = purchaseNo++;
        const customer = customers[i % customers.length];
        if (inFlight >= opts.maxInFlight) notSent[s] += 1;
        else pending.push(purchase(customer.token, MIX[i % MIX.length]));
        // The open dashboards: one read per purchase, balance and orders in turn, by another customer.
        const reader = customers[(i * 7 + 3) % customers.length];
        if (inFlight < opts.maxInFlight) pending.push(call("read", readNo++ % 2 === 0 ? "/api/user-balance" : "/api/orders", { token: reader.token }));
        if (k % fundEvery === fundEvery - 1 && inFlight < opts.maxInFlight) pending.push(fundOnce(customers[(i * 13 + 5) % customers.length].token, 1000, true));
        k += 1;
      }
      if (now >= nextSlotSample) {
        nextSlotSample = now + opts.slotSampleMs;
        pending.push(
          (async () => {
            const got = await opts.fetch(`${base}/sandbox/upstreams/slots`).then((r) => r.json() as Promise<ServerMetrics["slots"]>).catch(() => null);
            if (got) slotSamples.push({ step: s, inUse: Object.fromEntries(Object.entries(got).map(([a, v]) => [a, v.inUse])) });
          })(),
        );
      }
      await sleep(Math.min(20, started + k * interval - Date.now()));
    }
    // Let this step's requests answer (not their orders' whole lives) before reading its counters.
    const stepEnd = Date.now() + 30_000;
    while (inFlight > 0 && Date.now() < stepEnd) await sleep(50);
    stepMetrics[s] = await metrics(true);
  }
  step = opts.steps.length; // the drain's own requests are not step samples
  await Promise.allSettled(pending);

  // --- drain: every order settles (codes, timeouts, upstream errors, refunds) ----------------------------------------
  log(`draining: waiting up to ${opts.drainSeconds} s for every order to settle...`);
  const drainEnd = Date.now() + opts.drainSeconds * 1000;
  let open = Infinity;
  while (Date.now() < drainEnd) {
    open = Number((await must("counting open orders", "/sandbox/metrics/orders")).open ?? 0);
    if (open === 0) break;
    await sleep(1000);
  }
  // A settled order's last upstream call (an sms-man close after its code) may follow its row by a moment.
  await sleep(Math.min(2000, opts.drainSeconds * 100));
  const drained = await metrics(true);

  // --- invariants over every row -----------------------------------------------------------------------------------
  const invariants = (await must("running the invariants", "/sandbox/metrics/invariants")) as unknown as Record<string, number>;

  // --- figures -----------------------------------------------------------------------------------------------------
  const steps: StepReport[] = opts.steps.map((target, s) => {
    const mine = samples.filter((x) => x.step === s);
    const bought = mine.filter((x) => x.kind === "purchase");
    const ok = bought.filter((x) => x.status === 200);
    const byStatus: Record<string, number> = {};
    for (const x of mine) byStatus[String(x.status)] = (byStatus[String(x.status)] ?? 0) + 1;
    const measured = ok.map((x) => x.d1).filter((d): d is D1Figures => d !== null);
    const mean = (f: (d: D1Figures) => number) => round(measured.reduce((a, d) => a + f(d), 0) / Math.max(1, measured.length));
    const m = stepMetrics[s];
    const eq = ok.length > 0 && m
      ? {
          d1WaitMs: round((m.d1.api.waitMs + m.d1.objects.waitMs) / ok.length),
          d1DurationMs: round((m.d1.api.durationMs + m.d1.objects.durationMs) / ok.length),
          statements: round((m.d1.api.statements + m.d1.objects.statements) / ok.length),
          rowsRead: round((m.d1.api.rowsRead + m.d1.objects.rowsRead) / ok.length),
          rowsWritten: round((m.d1.api.rowsWritten + m.d1.objects.rowsWritten) / ok.length),
        }
      : null;
    const stepSlots: StepReport["slots"] = {};
    for (const account of ACCOUNTS) {
      const values = slotSamples.filter((x) => x.step === s).map((x) => x.inUse[account] ?? 0);
      const accepted = orders.filter((o) => o.step === s && o.account === account).length;
      stepSlots[account] = {
        max: values.length ? Math.max(...values) : 0,
        mean: values.length ? round(values.reduce((a, b) => a + b, 0) / values.length, 1) : 0,
        rate: round(accepted / opts.stepSeconds),
      };
    }
    const { byKind, byStatement } = d1Breakdown(m?.d1ByStatement ?? {}, ok.length);
    return {
      target,
      seconds: opts.stepSeconds,
      achieved: round(ok.length / opts.stepSeconds),
      purchases: { sent: bought.length, ok: ok.length, notSent: notSent[s] ?? 0 },
      latency: { purchase: percentiles(bought.map((x) => x.ms)), read: percentiles(mine.filter((x) => x.kind === "read").map((x) => x.ms)) },
      byStatus,
      nonClientErrors: mine.filter((x) => x.status === 0 || x.status >= 500).length,
      perPurchase: measured.length
        ? {
            roundTrips: mean((d) => d.roundTrips),
            statements: mean((d) => d.statements),
            waitMs: mean((d) => d.waitMs),
            durationMs: mean((d) => d.durationMs),
            rowsRead: mean((d) => d.rowsRead),
            rowsWritten: mean((d) => d.rowsWritten),
          }
        : null,
      perPurchaseEquivalent: eq,
      d1ByKind: byKind,
      d1ByStatement: byStatement,
      slots: stepSlots,
    };
  });

  let total: ServerMetrics | null = null;
  for (const m of [...stepMetrics, drained]) total = addMetrics(total, m);
  const n = Math.max(1, orders.length);
  const byAccount = (a: Account) => Math.max(1, orders.filter((o) => o.account === a).length);
  const upstreamCallsPerOrder: Record<string, number> = {};
  for (const account of ACCOUNTS) {
    const calls = Object.entries(total!.upstreamCalls)
      .filter(([k]) => k.startsWith(`${account} `) && !/getBalance|get-balance|getPrices|get-prices|countries|applications/.test(k))
      .reduce((a, [, v]) => a + v, 0);
    upstreamCallsPerOrder[account] = round(calls / byAccount(account));
  }
  const doRequests = Object.values(total!.doRequests).reduce((a, b) => a + b, 0);
  const listed = (await must("counting settled orders", "/sandbox/metrics/orders?list=1")) as {
    settled?: number;
    orders?: { id: string; provider: string; upstream: string | null; upstreamId: string | null; status: string; completionDue: number }[];
  };
  const settledRows = Number(listed.settled ?? 0);
  const callsPerDeliveredOrder = deliveredOrderCalls(orders, listed.orders ?? [], total!.upstreamCallsByActivation);

  // The ceiling of one database, from the lowest step (least queueing in front of D1).
  const base0 = steps.find((x) => x.perPurchaseEquivalent)?.perPurchaseEquivalent ?? null;
  const ceiling = {
    d1WaitMsPerEquivalent: base0?.d1WaitMs ?? null,
    d1DurationMsPerEquivalent: base0?.d1DurationMs ?? null,
    statementsPerEquivalent: base0?.statements ?? null,
    fromWallMs: base0 && base0.d1WaitMs > 0 ? round(D1_MS_PER_SECOND_AT_HALF / base0.d1WaitMs, 0) : null,
    fromDuration: base0 && base0.d1DurationMs > 0 ? round(D1_MS_PER_SECOND_AT_HALF / base0.d1DurationMs, 0) : null,
    fromModel: base0 && base0.statements > 0 ? round(D1_MS_PER_SECOND_AT_HALF / (base0.statements * MODEL_MS_PER_QUERY), 0) : null,
  };

  // Little's law per account: slots held = rate x hold time, so hold = mean slots / rate, and with the documented
  // limit the account sustains documented / hold purchases/s (the whole mix: that over the account's share of it).
  const upstreamBound: RateReport["upstreamBound"] = {};
  for (const [account, limits] of Object.entries(slotLimits)) {
    const share = MIX.filter((m) => accountOf(m) === account).length / MIX.length;
    const usable = steps.map((x) => x.slots[account]).filter((x) => x && x.rate > 0 && x.mean > 0);
    const hold = usable.length ? round(usable.reduce((a, x) => a + x.mean / x.rate, 0) / usable.length, 1) : null;
    const perAccount = hold && limits.documented !== null ? round(limits.documented / hold, 2) : null;
    upstreamBound[account] = { holdSeconds: hold, perAccount, wholeMix: perAccount !== null ? round(perAccount / share, 2) : null };
  }

  const report: RateReport = {
    slotLimits,
    steps,
    life: {
      orders: orders.length,
      settled: settledRows,
      doRequestsPerOrder: round(doRequests / n),
      alarmsSetPerOrder: round(total!.alarmsSet / n),
      alarmsRunPerOrder: round(total!.alarmsRun / n),
      upstreamCallsPerOrder,
    },
    callsPerDeliveredOrder,
    ceiling,
    upstreamBound,
    invariants,
    ok: Object.values(invariants).every((v) => v === 0) && open === 0,
  };

  // --- output ------------------------------------------------------------------------------------------------------
  log(`mix per 20 purchases: ${[...new Set(MIX.map((m) => m.label))].map((l) => `${MIX.filter((m) => m.label === l).length} ${l}`).join(", ")}; one read per purchase; ~4 card payments per step, each webhook replayed twice`);
  for (const x of steps) {
    log(
      `step ${x.target}/s x ${x.seconds} s: achieved ${x.achieved} purchases/s (${x.purchases.ok} bought of ${x.purchases.sent} sent, ${x.purchases.notSent} not sent: in-flight bound ${opts.maxInFlight})`,
    );
    log(`  latency ms: purchase p50 ${x.latency.purchase.p50} p95 ${x.latency.purchase.p95} p99 ${x.latency.purchase.p99}; read p50 ${x.latency.read.p50} p95 ${x.latency.read.p95} p99 ${x.latency.read.p99}`);
    log(
      `  answers by status: ${Object.entries(x.byStatus).map(([k, v]) => `${k}=${v}`).join(" ")}; non-4xx errors ${x.nonClientErrors}`,
    );
    if (x.perPurchase)
      log(
        `  per purchase request: D1 ${x.perPurchase.roundTrips} round trips, ${x.perPurchase.statements} statements, ${x.perPurchase.waitMs} ms waited (meta.duration ${x.perPurchase.durationMs} ms), rows read ${x.perPurchase.rowsRead}, written ${x.perPurchase.rowsWritten}`,
      );
    if (x.perPurchaseEquivalent)
      log(
        `  per purchase-equivalent (all API + Durable Object D1 work in the step / purchases): ${x.perPurchaseEquivalent.statements} statements, ${x.perPurchaseEquivalent.d1WaitMs} ms waited (meta.duration ${x.perPurchaseEquivalent.d1DurationMs} ms), rows read ${x.perPurchaseEquivalent.rowsRead}, written ${x.perPurchaseEquivalent.rowsWritten}`,
      );
    if (x === steps[0] && x.d1ByKind.length) {
      const line = (d: D1Share) => `${d.statements} statements, meta.duration ${d.durationMs} ms, rows read ${d.rowsRead}, written ${d.rowsWritten}`;
      log(`  D1 per purchase by request kind (this step):`);
      for (const d of x.d1ByKind) log(`    ${d.kind}: ${line(d)}`);
      log(`  D1 per purchase by statement (this step, the ${TOP_STATEMENTS} with most rows read + statements):`);
      for (const d of x.d1ByStatement.slice(0, TOP_STATEMENTS)) log(`    [${d.kind}] ${line(d)}: ${d.sql}`);
    }
    log(`  upstream slots in use: ${Object.entries(x.slots).map(([a, v]) => `${a} max ${v.max} mean ${v.mean} at ${v.rate} purchases/s`).join("; ")}`);
    const series = slotSamples.filter((v) => v.step === steps.indexOf(x));
    log(`  slots over time (every ${opts.slotSampleMs / 1000} s): ${ACCOUNTS.map((a) => `${a} ${series.map((v) => v.inUse[a] ?? 0).join(",")}`).join("; ")}`);
  }
  for (const [status, sample] of firstFailure) log(`first ${status || "no answer"}: ${sample}`);
  log(
    `per order over its life (${report.life.orders} orders, ${report.life.settled} settled rows in the database): Durable Object requests ${report.life.doRequestsPerOrder}, alarms set ${report.life.alarmsSetPerOrder} (run ${report.life.alarmsRunPerOrder}), upstream calls ${Object.entries(upstreamCallsPerOrder).map(([a, v]) => `${a} ${v}`).join(", ")} (a delivered Swift order's setStatus 6 comes 10 min after its code and is not in this count)`,
  );
  log(
    `ceiling of one D1 database at 50% of its single-query capacity (from the lowest step): ${ceiling.fromModel ?? "n/a"} purchases/s from Cloudflare's 1 ms/query x ${ceiling.statementsPerEquivalent ?? "n/a"} statements per purchase-equivalent; ${ceiling.fromDuration ?? "n/a"} purchases/s from D1's meta.duration, ${ceiling.d1DurationMsPerEquivalent ?? "n/a"} ms (locally a floor: miniflare's clock stands still during SQLite's work); ${ceiling.fromWallMs ?? "n/a"} purchases/s from ${ceiling.d1WaitMsPerEquivalent ?? "n/a"} ms waited on D1 (a ceiling: queueing and the local hop included, overlapping waits summed)`,
  );
  for (const [upstream, c] of Object.entries(callsPerDeliveredOrder))
    log(
      `upstream calls per delivered order, ${upstream}: median ${c.median}, mean ${c.mean}, p95 ${c.p95} over ${c.delivered} delivered orders (${c.completionsDue} completions still due after the run counted as 1 call each)`,
    );
  for (const [account, b] of Object.entries(upstreamBound))
    log(
      `upstream-bound rate, ${account} with its documented limit (${slotLimits[account].documented ?? "none"}): slot held ${b.holdSeconds ?? "n/a"} s on average -> ${b.perAccount ?? "unbounded"} purchases/s per account, ${b.wholeMix ?? "unbounded"} purchases/s of this mix`,
    );
  for (const [name, rows] of Object.entries(invariants)) log(`invariant ${rows === 0 ? "holds" : "BROKEN"}: ${name} (${rows} rows)`);
  if (open !== 0) log(`orders still open after the drain: ${open}`);
  return report;
}

/** The simulated upstream accounts the mix reaches (worker/sandbox/upstream-balances.ts slotsNow). */
const ACCOUNTS = ["swift", "smsman", "herosms"] as const;
type Account = (typeof ACCOUNTS)[number];

function accountOf(entry: MixEntry): Account {
  return entry.upstream ?? (entry.provider === "Swift" ? "swift" : "smsman");
}

const TOP_STATEMENTS = 30;

/** The step's per-statement counters as per-purchase shares, by request kind and by statement, heaviest first. */
export function d1Breakdown(byStatement: Record<string, StatementTally>, purchases: number): { byKind: D1Share[]; byStatement: D1Share[] } {
  const per = Math.max(1, purchases);
  const share = (kind: string, t: StatementTally, sql?: string): D1Share => ({
    kind,
    ...(sql === undefined ? {} : { sql }),
    statements: round(t.n / per),
    durationMs: round(t.durationMs / per, 3),
    rowsRead: round(t.rowsRead / per),
    rowsWritten: round(t.rowsWritten / per),
  });
  const kinds = new Map<string, StatementTally>();
  const statements: D1Share[] = [];
  for (const [key, t] of Object.entries(byStatement)) {
    const tab = key.indexOf("\t");
    const kind = key.slice(0, tab);
    statements.push(share(kind, t, key.slice(tab + 1)));
    const k = kinds.get(kind) ?? { n: 0, durationMs: 0, rowsRead: 0, rowsWritten: 0 };
    kinds.set(kind, { n: k.n + t.n, durationMs: k.durationMs + t.durationMs, rowsRead: k.rowsRead + t.rowsRead, rowsWritten: k.rowsWritten + t.rowsWritten });
  }
  const weight = (d: D1Share) => d.rowsRead + d.statements;
  return {
    byKind: [...kinds].map(([kind, t]) => share(kind, t)).sort((a, b) => b.statements - a.statements),
    byStatement: statements.sort((a, b) => weight(b) - weight(a)),
  };
}

/** The simulated account label each upstream's calls are counted under (providers/sms/upstreams.ts). */
const UPSTREAM_LABEL: Record<string, string> = { daisysms: "swift", smsman: "smsman", herosms: "herosms", grizzly: "grizzly" };

function deliveredOrderCalls(
  mine: { id: string; provider: string; pushed: boolean }[],
  listed: { id: string; provider: string; upstream: string | null; upstreamId: string | null; status: string; completionDue: number }[],
  byActivation: Record<string, number>,
): RateReport["callsPerDeliveredOrder"] {
  const pushed = new Map(mine.map((o) => [o.id, o.pushed]));
  const groups: Record<string, { calls: number[]; due: number }> = {};
  for (const o of listed) {
    if (!pushed.has(o.id) || o.status !== "used" || !o.upstreamId) continue;
    const upstream = o.upstream ?? (o.provider === "Dynamic" ? "smsman" : "daisysms");
    const calls = (byActivation[`${UPSTREAM_LABEL[upstream] ?? upstream} ${o.upstreamId}`] ?? 0) + (o.completionDue ? 1 : 0);
    const keys = [upstream, ...(upstream === "daisysms" ? [pushed.get(o.id) ? "daisysms, code pushed" : "daisysms, no push (fallback poll)"] : [])];
    for (const key of keys) {
      groups[key] ??= { calls: [], due: 0 };
      groups[key].calls.push(calls);
      if (o.completionDue) groups[key].due += 1;
    }
  }
  const out: RateReport["callsPerDeliveredOrder"] = {};
  for (const [key, g] of Object.entries(groups)) {
    const p = percentiles(g.calls);
    out[key] = { delivered: g.calls.length, median: p.p50, mean: round(g.calls.reduce((a, b) => a + b, 0) / g.calls.length), p95: p.p95, completionsDue: g.due };
  }
  return out;
}
