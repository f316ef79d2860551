import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../config";
import * as tools from "../contract/sandbox-tools";
import { AppError } from "../lib/errors";
import { signNowPaymentsBody } from "../providers/payments/signatures";
import { routeApp, type RouteApp } from "../routes/route-app";

/**
 * Sandbox NOWPayments, written from NOWPayments' API documentation (https://documenter.getpostman.com/view/7907941/2s93JusNJt),
 * not from our adapter. nowPaymentsSimulator speaks the documented API (status, merchant coins, full currencies,
 * min-amount, create/get payment) with the real service's checks (x-api-key on every call but /status, required
 * fields, the per-currency minimum) for the REAL adapter in sandbox mode. nowPaymentsSandboxRoutes
 * (/sandbox/nowpayments) lets a script or test move a payment to any status, which sends an IPN signed with the IPN
 * secret to our own webhook; it can also simulate what customers really do: pay less, pay in another currency, or
 * send a second deposit to the same address (a repeat payment carrying parent_payment_id).
 */
export const NOWPAYMENTS_SIMULATOR_PATH = "/sandbox/nowpayments-api";

/** Rough USD prices so pay_amount looks plausible; minUsd is what /min-amount reports as fiat_equivalent. */
const USD_PER_COIN: Record<string, { name: string; usd: number; network: string; decimals: number; minUsd: number }> = {
  BTC: { name: "Bitcoin", usd: 65_000, network: "btc", decimals: 8, minUsd: 2 },
  USDTTRC20: { name: "Tether USD (Tron)", usd: 1, network: "trx", decimals: 6, minUsd: 1 },
  ETH: { name: "Ethereum", usd: 3_200, network: "eth", decimals: 8, minUsd: 2 },
  SOL: { name: "Solana", usd: 150, network: "sol", decimals: 6, minUsd: 1 },
  LTC: { name: "Litecoin", usd: 80, network: "ltc", decimals: 8, minUsd: 1 },
  // Network fees on Ethereum make small USDT payments impossible: a currency whose real minimum is above ours.
  USDTERC20: { name: "Tether USD (Ethereum)", usd: 1, network: "eth", decimals: 6, minUsd: 25 },
  XMR: { name: "Monero", usd: 160, network: "xmr", decimals: 8, minUsd: 1 },
};
/** Selected in the sandbox merchant account (XMR is listed but not selected, so it is not available for payment). */
const SELECTED = ["BTC", "USDTTRC20", "ETH", "SOL", "LTC", "USDTERC20"];

interface SimPayment {
  payment_id: string;
  parent_payment_id?: string | null;
  payment_status: z.infer<typeof tools.nowPaymentStatusSchema>;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string;
  order_description: string;
  ipn_callback_url: string;
  network: string;
  purchase_id: string;
  created_at: string;
  updated_at: string;
}

const stateKey = (id: string) => `nowpayments:${id}`;

async function load(env: Env, id: string): Promise<SimPayment | null> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(stateKey(id)).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as SimPayment) : null;
}

async function save(env: Env, p: SimPayment): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3",
  )
    .bind(stateKey(p.payment_id), JSON.stringify(p), Date.now())
    .run();
}

const nowError = (statusCode: number, code: string, message: string) => ({ status: false, statusCode, code, message });

/**
 * NOWPayments sets a currency's minimum in crypto, so its dollar value moves with the coin's price, also between a
 * client's "Get the minimum payment amount" and its "Create payment". A script can make that happen here: the create
 * then enforces this figure while /min-amount still reports the listed one.
 */
const createMinimumKey = (currency: string) => `nowpayments:create-min-usd:${currency.toUpperCase()}`;

async function createMinimumUsd(env: Env, currency: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(createMinimumKey(currency)).first<{ value: string }>();
  return row ? Number(row.value) : null;
}

const createBody = z.object({
  price_amount: z.number().positive(),
  price_currency: z.string(),
  pay_currency: z.string().min(1),
  ipn_callback_url: z.string().url().optional(),
  order_id: z.string().optional(),
  order_description: z.string().optional(),
});

function publicPayment(p: SimPayment) {
  return {
    payment_id: Number(p.payment_id),
    parent_payment_id: p.parent_payment_id ? Number(p.parent_payment_id) : null,
    invoice_id: null,
    payment_status: p.payment_status,
    pay_address: p.pay_address,
    payin_extra_id: null,
    price_amount: p.price_amount,
    price_currency: p.price_currency,
    pay_amount: p.pay_amount,
    actually_paid: p.actually_paid,
    pay_currency: p.pay_currency,
    order_id: p.order_id,
    order_description: p.order_description,
    purchase_id: p.purchase_id,
    outcome_amount: p.payment_status === "finished" ? p.price_amount * 0.995 : 0,
    outcome_currency: "usdttrc20",
    network: p.network,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export const nowPaymentsSimulator = new Hono<{ Bindings: Env }>().basePath(NOWPAYMENTS_SIMULATOR_PATH);

// GET /status needs no key: "This is a method to get information about the current state of the API".
nowPaymentsSimulator.get("/status", (c) => c.json({ message: "OK" }));

nowPaymentsSimulator.use("*", async (c, next) => {
  const expected = c.env.NOWPAYMENTS_API_KEY ?? "";
  if (!expected || c.req.header("x-api-key") !== expected) return c.json(nowError(403, "INVALID_API_KEY", "Invalid api key"), 403);
  await next();
});

// Documented as {"selectedCurrencies": [...]} (the adapter also accepts {"currencies": [...]}: see its golden fixtures).
nowPaymentsSimulator.get("/merchant/coins", (c) => c.json({ selectedCurrencies: SELECTED }));

nowPaymentsSimulator.get("/min-amount", (c) => {
  const from = (c.req.query("currency_from") ?? "").toLowerCase();
  if (!from) return c.json(nowError(400, "INVALID_REQUEST_PARAMS", "currency_from is required"), 400);
  const coin = USD_PER_COIN[from.toUpperCase()];
  if (!coin) return c.json(nowError(400, "INVALID_REQUEST_PARAMS", `Currency ${from} was not found`), 400);
  const to = (c.req.query("currency_to") ?? "usdttrc20").toLowerCase();
  return c.json({
    currency_from: from,
    currency_to: to,
    min_amount: Number((coin.minUsd / coin.usd).toFixed(coin.decimals)),
    ...(c.req.query("fiat_equivalent") ? { fiat_equivalent: coin.minUsd } : {}),
  });
});

nowPaymentsSimulator.get("/full-currencies", (c) =>
  c.json({
    currencies: Object.entries(USD_PER_COIN).map(([code, coin], i) => ({
      id: i + 1,
      code,
      name: coin.name,
      enable: true,
      wallet_regex: ".*",
      priority: i,
      extra_id_exists: false,
      extra_id_regex: null,
      logo_url: `/images/coins/${code.toLowerCase()}.svg`,
      track: true,
      cg_id: code.toLowerCase(),
      is_maxlimit: false,
      network: coin.network,
      smart_contract: null,
      network_precision: null,
    })),
  }),
);

nowPaymentsSimulator.post("/payment", async (c) => {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return c.json(nowError(400, "INVALID_REQUEST_PARAMS", "Invalid JSON"), 400);
  }
  const parsed = createBody.safeParse(raw);
  if (!parsed.success) return c.json(nowError(400, "INVALID_REQUEST_PARAMS", parsed.error.issues[0]?.message ?? "Invalid request"), 400);
  const body = parsed.data;
  const coin = USD_PER_COIN[body.pay_currency.toUpperCase()];
  if (!coin || !SELECTED.includes(body.pay_currency.toUpperCase())) {
    return c.json(nowError(400, "INVALID_REQUEST_PARAMS", "Currency is not available for payment"), 400);
  }
  // Below the currency's minimum at the moment of creation: the documented error object with AMOUNT_MINIMAL_ERROR and
  // the crypto amount in its message, as their sample ("Crypto amount 0.00001 is less than minimal"). The minimum is
  // the one /min-amount reports unless a script moved it since (POST /sandbox/nowpayments/create-minimum/:currency).
  const minUsd = (await createMinimumUsd(c.env, body.pay_currency)) ?? coin.minUsd;
  if (body.price_currency.toLowerCase() === "usd" && body.price_amount < minUsd) {
    const cryptoAmount = Number((body.price_amount / coin.usd).toFixed(coin.decimals));
    return c.json(nowError(400, "AMOUNT_MINIMAL_ERROR", `Crypto amount ${cryptoAmount} is less than minimal`), 400);
  }
  const id = String(4_000_000_000 + Math.floor(Math.random() * 999_999_999));
  const now = new Date().toISOString();
  const payment: SimPayment = {
    payment_id: id,
    payment_status: "waiting",
    pay_address: `sbx${body.pay_currency.toLowerCase()}${crypto.randomUUID().replace(/-/g, "").slice(0, 26)}`,
    price_amount: body.price_amount,
    price_currency: body.price_currency.toLowerCase(),
    pay_amount: Number((body.price_amount / coin.usd).toFixed(coin.decimals)),
    actually_paid: 0,
    pay_currency: body.pay_currency.toLowerCase(),
    order_id: body.order_id ?? "",
    order_description: body.order_description ?? "",
    ipn_callback_url: body.ipn_callback_url ?? "",
    network: coin.network,
    purchase_id: String(5_000_000_000 + Math.floor(Math.random() * 999_999_999)),
    created_at: now,
    updated_at: now,
  };
  await save(c.env, payment);
  // The create answer carries payment_id as a string, the get answer as a number: the adapter accepts both.
  return c.json({ ...publicPayment(payment), payment_id: id, valid_until: new Date(Date.now() + 1_000_000).toISOString() }, 201);
});

nowPaymentsSimulator.get("/payment/:id", async (c) => {
  const payment = await load(c.env, c.req.param("id"));
  // The documents give no sample for an unknown payment; a 404 in the documented error format is this simulator's
  // choice (the adapter reads any 404 as "unknown", and any other refusal as a fault: neither credits anything).
  if (!payment) return c.json(nowError(404, "PAYMENT_NOT_FOUND", "Payment not found"), 404);
  return c.json(publicPayment(payment));
});

/** The IPN NOWPayments posts on a status change: the payment object plus a nested fee object. */
export function nowPaymentsIpnBody(
  p: Pick<SimPayment, "payment_id" | "payment_status" | "pay_address" | "price_amount" | "pay_amount" | "actually_paid" | "pay_currency" | "order_id" | "order_description" | "purchase_id"> & {
    parent_payment_id?: string | null;
  },
) {
  return {
    payment_id: Number(p.payment_id),
    parent_payment_id: p.parent_payment_id ? Number(p.parent_payment_id) : null,
    invoice_id: null,
    payment_status: p.payment_status,
    pay_address: p.pay_address,
    payin_extra_id: null,
    price_amount: p.price_amount,
    price_currency: "usd",
    pay_amount: p.pay_amount,
    actually_paid: p.actually_paid,
    actually_paid_at_fiat: 0,
    pay_currency: p.pay_currency,
    order_id: p.order_id,
    order_description: p.order_description,
    purchase_id: p.purchase_id,
    outcome_amount: p.price_amount * 0.995,
    outcome_currency: "usdttrc20",
    payment_extra_ids: null,
    fee: { currency: "usdttrc20", depositFee: 0.1, withdrawalFee: 0, serviceFee: 0.05 },
  };
}

export const nowPaymentsSandboxRoutes: RouteApp = routeApp()
  .openapi(tools.createMinimum, async (c) => {
    const { currency } = c.req.valid("param");
    const { min_usd } = c.req.valid("json");
    const key = createMinimumKey(currency);
    if (min_usd === null) await c.env.DB.prepare("DELETE FROM sandbox_state WHERE key = ?").bind(key).run();
    else {
      await c.env.DB.prepare("INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3")
        .bind(key, String(min_usd), Date.now())
        .run();
    }
    return c.json({ currency: currency.toUpperCase(), create_min_usd: min_usd });
  })
  .openapi(tools.setPaymentStatus, async (c) => {
  const original = await load(c.env, c.req.valid("param").paymentId);
  if (!original) throw new AppError("NOT_FOUND", "No sandbox payment with this id.");
  const body = c.req.valid("json");
  const now = new Date().toISOString();
  let payment: SimPayment;
  if (body.repeat) {
    payment = {
      ...original,
      payment_id: String(4_000_000_000 + Math.floor(Math.random() * 999_999_999)),
      parent_payment_id: original.payment_id,
      payment_status: body.payment_status,
      actually_paid: body.actually_paid ?? original.pay_amount,
      pay_currency: body.pay_currency?.toLowerCase() ?? original.pay_currency,
      created_at: now,
      updated_at: now,
    };
  } else {
    payment = original;
    payment.payment_status = body.payment_status;
    payment.actually_paid = body.actually_paid ?? (body.payment_status === "finished" ? payment.pay_amount : payment.actually_paid);
    if (body.pay_currency) payment.pay_currency = body.pay_currency.toLowerCase();
    payment.updated_at = now;
  }
  await save(c.env, payment);
  const ipn = { ...nowPaymentsIpnBody(payment), ...(body.extra_ids ? { payment_extra_ids: body.extra_ids } : {}) };
  const signature = await signNowPaymentsBody(c.env.NOWPAYMENTS_IPN_SECRET ?? "", ipn, { arraysAsObjects: body.signature_form === "objects" });
  const response = await c.var.loopback(
    new Request(new URL("/api/webhooks/nowpayments", c.var.config.publicUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": signature },
      body: JSON.stringify(ipn),
    }),
  );
  return c.json({ payment_id: payment.payment_id, parent_payment_id: payment.parent_payment_id ?? null, payment_status: payment.payment_status, webhook_status: response.status });
});
