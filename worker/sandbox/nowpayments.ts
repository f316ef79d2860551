import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import type { Env } from "../env";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { nowPaymentStatusSchema } from "../providers/payments/nowpayments";
import { signNowPaymentsBody } from "../providers/payments/signatures";

/**
 * Sandbox NOWPayments. nowPaymentsSimulator speaks NOWPayments' documented API (merchant coins, full currencies,
 * create/get payment) for the REAL adapter in sandbox mode; nowPaymentsSandboxRoutes (/sandbox/nowpayments) lets a
 * script or test move a payment to any status, which sends an IPN signed with the IPN secret to our own webhook.
 */
export const NOWPAYMENTS_SIMULATOR_PATH = "/sandbox/nowpayments-api";

/** Rough USD prices so pay_amount looks plausible. */
const USD_PER_COIN: Record<string, { name: string; usd: number; network: string; decimals: number }> = {
  BTC: { name: "Bitcoin", usd: 65_000, network: "btc", decimals: 8 },
  USDTTRC20: { name: "Tether USD (Tron)", usd: 1, network: "trx", decimals: 6 },
  ETH: { name: "Ethereum", usd: 3_200, network: "eth", decimals: 8 },
  SOL: { name: "Solana", usd: 150, network: "sol", decimals: 6 },
  LTC: { name: "Litecoin", usd: 80, network: "ltc", decimals: 8 },
  USDTERC20: { name: "Tether USD (Ethereum)", usd: 1, network: "eth", decimals: 6 },
  XMR: { name: "Monero", usd: 160, network: "xmr", decimals: 8 },
};
/** Selected in the sandbox merchant account (XMR is listed but not selected, so it is not available for payment). */
const SELECTED = ["BTC", "USDTTRC20", "ETH", "SOL", "LTC", "USDTERC20"];

interface SimPayment {
  payment_id: string;
  payment_status: z.infer<typeof nowPaymentStatusSchema>;
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

nowPaymentsSimulator.use("*", async (c, next) => {
  const expected = c.env.NOWPAYMENTS_API_KEY ?? "";
  if (!expected || c.req.header("x-api-key") !== expected) return c.json(nowError(403, "INVALID_API_KEY", "Invalid api key"), 403);
  await next();
});

nowPaymentsSimulator.get("/merchant/coins", (c) => c.json({ selectedCurrencies: SELECTED }));

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
  if (!payment) return c.json(nowError(404, "PAYMENT_NOT_FOUND", "Payment not found"), 404);
  return c.json(publicPayment(payment));
});

/** The IPN NOWPayments posts on a status change: the payment object plus a nested fee object. */
export function nowPaymentsIpnBody(p: Pick<SimPayment, "payment_id" | "payment_status" | "pay_address" | "price_amount" | "pay_amount" | "actually_paid" | "pay_currency" | "order_id" | "order_description" | "purchase_id">) {
  return {
    payment_id: Number(p.payment_id),
    parent_payment_id: null,
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

export const nowPaymentsSandboxRoutes = new Hono<AppEnv>().post(
  "/:paymentId/status",
  validate("json", z.object({ payment_status: nowPaymentStatusSchema, actually_paid: z.number().min(0).optional() })),
  async (c) => {
    const payment = await load(c.env, c.req.param("paymentId"));
    if (!payment) throw new AppError("NOT_FOUND", "No sandbox payment with this id.");
    const body = c.req.valid("json");
    payment.payment_status = body.payment_status;
    payment.actually_paid = body.actually_paid ?? (body.payment_status === "finished" ? payment.pay_amount : payment.actually_paid);
    payment.updated_at = new Date().toISOString();
    await save(c.env, payment);
    const ipn = nowPaymentsIpnBody(payment);
    const signature = await signNowPaymentsBody(c.env.NOWPAYMENTS_IPN_SECRET ?? "", ipn);
    const { createApp } = await import("../app");
    const response = await createApp().fetch(
      new Request(new URL("/api/webhooks/nowpayments", c.req.url), {
        method: "POST",
        headers: { "content-type": "application/json", "x-nowpayments-sig": signature },
        body: JSON.stringify(ipn),
      }),
      c.env,
      c.executionCtx,
    );
    return c.json({ payment_id: payment.payment_id, payment_status: payment.payment_status, webhook_status: response.status });
  },
);
