import { createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fund, register } from "./api";
import { INVARIANT_SQL } from "../worker/sandbox/invariants";
import { localD1 as d1, startServer } from "./server";

/**
 * The load run (issue 9): 500 concurrent purchases across 50 funded wallets while Squad webhooks are replayed, Verify
 * Payment is clicked and the SMS pollers' alarms fire; then the money invariants are checked on the server's own
 * database with the operator's reconcile SQL. Bounded in count and time, 127.0.0.1 only.
 *
 *   npx tsx bench/load.ts            starts its own server on BENCH_PORT (default 8821), runs, stops it
 *   runLoad(url, { persistTo })      against a running local server (bench/run.ts)
 */

const WALLETS = 50;
const PURCHASES = 500;
const FUND_NAIRA = 10_000;
const SETTLE_TIMEOUT_MS = 90_000;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export interface LoadReport {
  requests: number;
  byStatus: Record<string, number>;
  errors: number;
  purchases: { ok: number; insufficient: number; other: number; p50: number; p99: number };
  all: { p50: number; p99: number };
  seconds: number;
  invariants: Record<string, number>;
  ok: boolean;
}

interface Sample {
  kind: string;
  status: number;
  ms: number;
}

const samples: Sample[] = [];
/** The first answer seen for each failing status, so a report says what went wrong, not only how often. */
const firstFailure = new Map<number, string>();

/** The few answer fields the run reads; anything else in a body is ignored. */
interface Answer {
  data?: { data?: { transaction_ref?: string } } | { status: string }[];
  phone?: { request_id?: string };
}

async function timed(kind: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: Answer | string | null }> {
  const t0 = performance.now();
  let status = 0;
  let body: Answer | string | null = null;
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    status = res.status;
    const text = await res.text();
    try {
      body = JSON.parse(text) as Answer;
    } catch {
      body = text;
    }
  } catch {
    status = 0; // network failure or our own 60 s limit
  }
  samples.push({ kind, status, ms: performance.now() - t0 });
  if ((status === 0 || status >= 500) && !firstFailure.has(status)) firstFailure.set(status, `${kind}: ${JSON.stringify(body).slice(0, 200)}`);
  return { status, body };
}

const json = (token: string | null, body?: unknown): RequestInit => ({
  method: body === undefined ? "GET" : "POST",
  headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
}

/** Runs `n` tasks with at most `width` in flight. */
async function pool<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

function devVar(name: string): string | null {
  const file = path.join(root, ".dev.vars");
  if (!existsSync(file)) return null;
  const line = readFileSync(file, "utf8").split("\n").find((l) => l.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).trim() : null;
}

export async function runLoad(url: string, opts: { persistTo?: string; log?: (line: string) => void } = {}): Promise<LoadReport> {
  const say = opts.log ?? ((line: string) => console.log(line));
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error("the load run only targets http://127.0.0.1:<port>");
  samples.length = 0;
  firstFailure.clear();
  const squadSecret = devVar("SQUAD_SECRET_KEY");

  // Pollers tick every second and give up after 5 polls, so alarms fire (and refund) while the purchases land.
  await timed("setup", `${url}/sandbox/settings/sms_poll`, json(null, { interval_ms: 1000, max_attempts: 5 }));

  say(`funding ${WALLETS} wallets with ₦${FUND_NAIRA} each through the sandbox checkout...`);
  const wallets: { token: string; email: string; refs: string[] }[] = [];
  await pool(Array.from({ length: WALLETS }, (_, i) => i), 5, async (i) => {
    const user = await register(url, `load${i}`);
    await fund(url, user.token, FUND_NAIRA);
    wallets.push({ token: user.token, email: user.email, refs: [] });
  });
  // One more checkout per wallet, left open: the burst completes it and replays its webhook.
  const refsOf = async (w: (typeof wallets)[number]) => {
    const init = await timed("fund", `${url}/api/initialize-transaction`, json(w.token, { amount: 1000, currency: "NGN" }));
    const data = typeof init.body === "object" ? init.body?.data : undefined;
    const ref = data && !Array.isArray(data) ? data.data?.transaction_ref : undefined;
    if (ref) w.refs.push(ref);
  };
  await pool(wallets, 10, refsOf);

  say(`${PURCHASES} concurrent purchases, with webhook replays, Verify clicks and cancels in between...`);
  const started = performance.now();
  const orderIds: { token: string; id: string }[] = [];
  const purchases = Array.from({ length: PURCHASES }, (_, i) => async () => {
    const w = wallets[i % WALLETS];
    const res = await timed("purchase", `${url}/api/sms/get-number`, json(w.token, { provider: i % 3 === 0 ? "Dynamic" : "Swift", country: "5", service: i % 3 === 0 ? "1" : "wa" }));
    const id = typeof res.body === "object" ? res.body?.phone?.request_id : undefined;
    if (res.status === 200 && id) {
      orderIds.push({ token: w.token, id });
      // A third of the customers change their mind at once (races the poller's first tick).
      if (i % 3 === 1) await timed("cancel", `${url}/api/sms/cancel`, json(w.token, { request_id: id }));
    }
  });
  const replays = wallets.flatMap((w) =>
    w.refs.flatMap((ref) => [
      // the sandbox checkout completes the payment and sends the signed webhook; then the same webhook again, twice
      async () => void (await timed("webhook", `${url}/sandbox/squad/${ref}/complete`, json(null, { outcome: "success" }))),
      ...(squadSecret ? [0, 1] : []).map(() => async () => {
        const raw = JSON.stringify({ Event: "charge_successful", TransactionRef: ref, Body: { amount: 100_000, transaction_ref: ref, transaction_status: "Success", email: w.email, currency: "NGN" } });
        const sig = createHmac("sha512", squadSecret!).update(raw).digest("hex").toUpperCase();
        await timed("webhook", `${url}/api/webhooks/squad`, { method: "POST", headers: { "content-type": "application/json", "x-squad-encrypted-body": sig }, body: raw });
      }),
      async () => void (await timed("verify", `${url}/api/verify-payment`, json(w.token, { transaction_ref: ref }))),
    ]),
  );
  await Promise.all([...purchases, ...replays].map((task) => task()));
  const seconds = (performance.now() - started) / 1000;

  say("letting the pollers' alarms settle every order...");
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let waiting = Infinity;
  while (Date.now() < deadline) {
    waiting = 0;
    for (const w of wallets) {
      const orders = await timed("orders", `${url}/api/orders`, json(w.token));
      const list = typeof orders.body === "object" && Array.isArray(orders.body?.data) ? orders.body.data : [];
      waiting += list.filter((o) => o.status === "waiting" || o.status === "pending").length;
    }
    if (waiting === 0) break;
    await new Promise((r) => setTimeout(r, 2000));
  }

  const invariants: Record<string, number> = {};
  if (opts.persistTo) {
    for (const [name, sql] of Object.entries(INVARIANT_SQL)) invariants[name] = d1(opts.persistTo, sql).length;
  }

  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[String(s.status)] = (byStatus[String(s.status)] ?? 0) + 1;
  const bought = samples.filter((s) => s.kind === "purchase");
  const report: LoadReport = {
    requests: samples.length,
    byStatus,
    errors: samples.filter((s) => s.status === 0 || s.status >= 500).length,
    purchases: {
      ok: bought.filter((s) => s.status === 200).length,
      insufficient: bought.filter((s) => s.status === 402).length,
      other: bought.filter((s) => s.status !== 200 && s.status !== 402).length,
      p50: percentile(bought.map((s) => s.ms), 0.5),
      p99: percentile(bought.map((s) => s.ms), 0.99),
    },
    all: { p50: percentile(samples.map((s) => s.ms), 0.5), p99: percentile(samples.map((s) => s.ms), 0.99) },
    seconds: Math.round(seconds * 10) / 10,
    invariants,
    ok: waiting === 0 && Object.values(invariants).every((n) => n === 0),
  };
  say(`requests ${report.requests} in the burst window of ${report.seconds} s (plus setup and settling); errors (5xx or no answer) ${report.errors}`);
  say(`by status: ${Object.entries(byStatus).map(([k, v]) => `${k}=${v}`).join(" ")}`);
  for (const [status, sample] of firstFailure) say(`first ${status || "no answer"}: ${sample}`);
  say(`purchases: ${report.purchases.ok} bought, ${report.purchases.insufficient} refused for balance, ${report.purchases.other} other; p50 ${report.purchases.p50} ms, p99 ${report.purchases.p99} ms`);
  say(`all requests: p50 ${report.all.p50} ms, p99 ${report.all.p99} ms; orders still waiting: ${waiting}`);
  for (const [name, rows] of Object.entries(invariants)) say(`invariant ${rows === 0 ? "holds" : "BROKEN"}: ${name} (${rows} rows)`);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.BENCH_PORT ?? 8821);
  // Codes arrive after 3 s for most services, so some orders end used, some cancelled, some timed out by their alarm.
  const server = await startServer(port, ["SANDBOX_SMS_DELAY_MS:3000"]);
  try {
    const report = await runLoad(server.url, { persistTo: path.join(root, ".wrangler", `bench-${port}`) });
    process.exitCode = report.ok && report.errors === 0 ? 0 : 1;
  } finally {
    server.stop();
  }
}
