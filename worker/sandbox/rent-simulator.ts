import { Hono } from "hono";
import { RENT_CANCEL_WINDOW_MS, RENT_UNIT_MS } from "../../schema/rentals";
import { RENT_UNITS, type RentUnit } from "../../schema/constants";
import type { Env } from "../config";
import { chargeSandbox, sandboxBalance, SANDBOX_RUB_PER_USD, setSandboxBalance } from "./sms-activations";
import { sandboxSmsManToken } from "./sms-man-simulator";

/**
 * A protocol simulator of the sms-man rent API for sandbox mode (`npm start`, the tests, e2e). The real adapter
 * (worker/providers/rent/sms-man-rent.ts) is bound to it in-process, so sandbox runs exercise the real request and
 * parsing code. State lives in D1 (sandbox_state, keys rent:*).
 *
 * Behaviour: stock for every country, unit and period, except two test hooks:
 *   country 999: no stock (limits answers an empty list, get-number answers no_numbers);
 *   country 998: stock is shown but get-number refuses (so a refused rental and its instant refund can be seen).
 * The first SMS arrives SANDBOX_SMS_DELAY_MS after the number is rented, then one every SMS_INTERVAL_MS while the
 * rental lasts. Cancel is allowed within 20 minutes and before any SMS, like the upstream.
 *
 * Written from https://sms-man.com/api/rent: the token is checked (wrong_token) and a User-Agent required (403); our
 * sandbox account holds ROUBLES (the documents' sample cost, 151.68 for 4 hours, is plainly roubles, and the rent API
 * documents no currency parameter), shared with the activation API: get-balance and limits answer roubles; a rental
 * is charged when taken ("balance" when short) and refunded when cancelled.
 */
export const SANDBOX_NO_STOCK_COUNTRY = "999";
export const SANDBOX_REFUSING_COUNTRY = "998";
const SMS_INTERVAL_MS = 90_000;
const MAX_SMS = 30;

const COUNTRIES: Record<string, string> = {
  "1": "Russia",
  "5": "USA",
  "7": "United Kingdom",
  "19": "Nigeria",
  "22": "Germany",
  "36": "Canada",
  "52": "Netherlands",
  "78": "France",
  [SANDBOX_REFUSING_COUNTRY]: "Refusing land (sandbox)",
  [SANDBOX_NO_STOCK_COUNTRY]: "Sold-out land (sandbox)",
};

/** US dollars per unit before the country factor: roughly what rented numbers cost upstream. */
const UNIT_COST_USD: Record<RentUnit, number> = { hour: 0.12, day: 0.9, week: 3.5, month: 9 };
const SENDERS = ["WhatsApp", "Telegram", "Google", "Facebook", "Amazon", "Microsoft"];

export interface SandboxRental {
  countryId: string;
  unit: RentUnit;
  period: number;
  number: string;
  createdAt: number;
  endsAt: number;
  /** When the first SMS arrives (tests move it to control what the upstream has). */
  firstSmsAt: number;
  status: "active" | "cancelled" | "closed";
  closedAt: number | null;
}

export function sandboxRentCostUsd(countryId: string, unit: RentUnit, period: number): number {
  const factor = 1 + (Number(countryId) % 5) / 10;
  return Math.round(UNIT_COST_USD[unit] * period * factor * 100) / 100;
}

function stockFor(countryId: string, unit: RentUnit, period: number): number {
  if (countryId === SANDBOX_NO_STOCK_COUNTRY) return 0;
  return 20 + ((Number(countryId) * 7 + period * 3 + RENT_UNITS.indexOf(unit)) % 80);
}

function delayMs(env: Env): number {
  const n = Number(env.SANDBOX_SMS_DELAY_MS ?? "10000");
  return Number.isFinite(n) && n >= 0 ? n : 10_000;
}

const key = (requestId: string) => `rent:${requestId}`;

export async function readSandboxRental(d1: D1Database, requestId: string): Promise<SandboxRental | null> {
  const row = await d1.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(key(requestId)).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as SandboxRental) : null;
}

export async function writeSandboxRental(d1: D1Database, requestId: string, rental: SandboxRental): Promise<void> {
  await d1
    .prepare(
      "INSERT INTO sandbox_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(key(requestId), JSON.stringify(rental), Date.now())
    .run();
}

/** The messages the simulated number has received by `now`. */
export function sandboxMessages(requestId: string, rental: Pick<SandboxRental, "firstSmsAt" | "endsAt" | "closedAt">, now: number) {
  const until = Math.min(now, rental.closedAt ?? rental.endsAt);
  const out: { id: string; sender: string; text: string; code: string; date: string }[] = [];
  for (let k = 0; k < MAX_SMS; k++) {
    const at = rental.firstSmsAt + k * SMS_INTERVAL_MS;
    if (at > until) break;
    const sender = SENDERS[(Number(requestId) + k) % SENDERS.length];
    const code = String(100000 + ((Number(requestId) * 7919 + k * 104729) % 900000));
    out.push({
      id: `${requestId}${String(k).padStart(2, "0")}`,
      sender,
      text: `Your ${sender} code is ${code}. Do not share it.`,
      code,
      date: new Date(at).toISOString().slice(0, 19).replace("T", " "),
    });
  }
  return out;
}

const err = (code: string, msg: string | Record<string, string>) => ({ success: false, error_code: code, error_msg: msg });

export const rentSimulator = new Hono<{ Bindings: Env }>();

rentSimulator.use("*", async (c, next) => {
  if (!c.req.header("user-agent")) return c.text("Forbidden", 403);
  if (c.req.query("token") !== sandboxSmsManToken(c.env)) return c.json(err("wrong_token", { token: "Wrong token!" }));
  await next();
});

/** The rouble price of a rental in the sandbox market. */
export function sandboxRentCostRub(countryId: string, unit: RentUnit, period: number): number {
  return Math.round(sandboxRentCostUsd(countryId, unit, period) * SANDBOX_RUB_PER_USD * 100) / 100;
}

rentSimulator.get("/rent-api/get-balance", async (c) => c.json({ balance: (await sandboxBalance(c.env, "smsman")).toFixed(2) }));

function readChoice(c: { req: { query(name: string): string | undefined } }) {
  const countryId = c.req.query("country_id") ?? "";
  const unit = c.req.query("type") as RentUnit;
  const period = Number(c.req.query("time"));
  if (!/^\d+$/.test(countryId) || !RENT_UNITS.includes(unit) || !Number.isInteger(period) || period < 1) return null;
  return { countryId, unit, period };
}

rentSimulator.get("/control/countries", (c) =>
  c.json(Object.fromEntries(Object.entries(COUNTRIES).map(([id, title]) => [id, { id, title }]))),
);

rentSimulator.get("/rent-api/limits", (c) => {
  const choice = readChoice(c);
  if (!choice) return c.json(err("wrong_params", "Bad country_id, type or time"));
  const count = stockFor(choice.countryId, choice.unit, choice.period);
  const limits =
    count > 0
      ? [{ country_id: choice.countryId, count: String(count), cost: sandboxRentCostRub(choice.countryId, choice.unit, choice.period).toFixed(2) }]
      : [];
  return c.json({ type: choice.unit, time: String(choice.period), limits });
});

rentSimulator.get("/rent-api/get-number", async (c) => {
  const choice = readChoice(c);
  if (!choice) return c.json(err("wrong_params", "Bad country_id, type or time"));
  if (stockFor(choice.countryId, choice.unit, choice.period) === 0) return c.json(err("no_numbers", "No free numbers"));
  if (choice.countryId === SANDBOX_REFUSING_COUNTRY) return c.json(err("balance", { message: "Not enough balance" }));
  const cost = sandboxRentCostRub(choice.countryId, choice.unit, choice.period);
  if (!(await chargeSandbox(c.env, "smsman", cost))) return c.json(err("balance", { message: "Not enough balance" }));
  const seq = await c.env.DB.prepare(
    "INSERT INTO sandbox_state (key, value, updated_at) VALUES ('rent:seq', '1', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1, updated_at = excluded.updated_at RETURNING value",
  )
    .bind(Date.now())
    .first<{ value: string | number }>();
  const requestId = String(1000 + Number(seq?.value ?? 1));
  const now = Date.now();
  const number = `1555${String(Number(requestId) * 7).padStart(7, "0").slice(-7)}`;
  await writeSandboxRental(c.env.DB, requestId, {
    ...choice,
    number,
    createdAt: now,
    endsAt: now + choice.period * RENT_UNIT_MS[choice.unit],
    firstSmsAt: now + delayMs(c.env),
    status: "active",
    closedAt: null,
  });
  return c.json({ request_id: Number(requestId), country_id: Number(choice.countryId), number });
});

rentSimulator.get("/rent-api/get-all-sms", async (c) => {
  const requestId = c.req.query("request_id") ?? "";
  const rental = await readSandboxRental(c.env.DB, requestId);
  if (!rental) return c.json(err("wrong_request_id", "No such rental"));
  const sms = sandboxMessages(requestId, rental, Date.now());
  if (sms.length === 0) return c.json({ request_id: Number(requestId), error_code: "wait_sms", error_msg: "Still waiting..." });
  return c.json({ request_id: Number(requestId), sms });
});

rentSimulator.get("/rent-api/set-status", async (c) => {
  const requestId = c.req.query("request_id") ?? "";
  const status = c.req.query("status");
  const rental = await readSandboxRental(c.env.DB, requestId);
  if (!rental) return c.json(err("wrong_request_id", "No such rental"));
  const now = Date.now();
  if (status === "cancel") {
    if (rental.status !== "active") return c.json(err("wrong_status", "The rental is not active"));
    if (now - rental.createdAt > RENT_CANCEL_WINDOW_MS) return c.json(err("wrong_status", "The cancel window has passed"));
    if (sandboxMessages(requestId, rental, now).length > 0) return c.json(err("wrong_status", "An SMS was received"));
    await writeSandboxRental(c.env.DB, requestId, { ...rental, status: "cancelled", closedAt: now });
    const refund = sandboxRentCostRub(rental.countryId, rental.unit, rental.period);
    await setSandboxBalance(c.env, "smsman", (await sandboxBalance(c.env, "smsman")) + refund);
    return c.json({ request_id: Number(requestId), success: true });
  }
  if (status === "close") {
    // Closing twice is harmless upstream too: the rental is simply already closed.
    if (rental.status === "active") await writeSandboxRental(c.env.DB, requestId, { ...rental, status: "closed", closedAt: now });
    return c.json({ request_id: Number(requestId), success: true });
  }
  return c.json(err("wrong_status", "Unknown status"));
});

rentSimulator.notFound((c) => c.text("<html><body>404 Not Found</body></html>", 404));
