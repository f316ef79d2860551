import { Hono, type Context } from "hono";
import { z } from "zod";
import { koboToNaira, formatNaira } from "../../schema/money";
import type { AppEnv } from "../app-env";
import { configFor, type Env } from "../config";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { signSquadBody } from "../providers/payments/signatures";

/**
 * Sandbox Squad, written from Squad's documents (https://docs.squadco.com/Payments/Initiate-payment,
 * https://docs.squadco.com/Payments/verify-transaction), not from our adapter. Two halves:
 * - squadSimulator: Squad's documented API (initiate, verify) that the REAL adapter is bound to in sandbox mode, with
 *   its checks: no key is 401, a wrong key 403, a non-alphanumeric or reused transaction_ref 400, an unknown
 *   reference on verify 400 "Invalid transaction reference";
 * - squadSandboxRoutes (/sandbox/squad): the hosted checkout page with Pay and Fail, and a scripted completion.
 *   Pay sends a webhook signed exactly as Squad signs it to our own /api/webhooks/squad, in-process.
 * State lives in D1 (sandbox_state) so the checkout page, the adapter and the tests see the same transactions.
 */
export const SQUAD_SIMULATOR_PATH = "/sandbox/squad-api";

interface SimTransaction {
  transaction_ref: string;
  amount: number;
  email: string;
  currency: string;
  callback_url: string;
  status: "Pending" | "Success" | "Failed" | "Abandoned";
  created_at: string;
}

const stateKey = (ref: string) => `squad:${ref}`;

async function load(env: Env, ref: string): Promise<SimTransaction | null> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(stateKey(ref)).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as SimTransaction) : null;
}

async function save(env: Env, tx: SimTransaction): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3",
  )
    .bind(stateKey(tx.transaction_ref), JSON.stringify(tx), Date.now())
    .run();
}

const squadError = (status: number, message: string) => ({ status, success: false, message, data: {} });

const initiateBody = z.object({
  amount: z.number().int().min(100),
  email: z.string().email(),
  currency: z.literal("NGN"),
  initiate_type: z.literal("inline"),
  // "transaction_ref: An alphanumeric string that uniquely identifies a transaction".
  transaction_ref: z.string().regex(/^[A-Za-z0-9]+$/, "transaction_ref must be alphanumeric"),
  callback_url: z.string().url(),
  customer_name: z.string().optional(),
});

export const squadSimulator = new Hono<{ Bindings: Env }>().basePath(SQUAD_SIMULATOR_PATH);

// "Any request made without the authorization key (secret key) will fail with a 401"; the documented 401 body is
// {"success":false,"message":"","data":{}}, and an invalid key is 403 {"success":false,"message":"API key is invalid..."}.
squadSimulator.use("*", async (c, next) => {
  const expected = c.env.SQUAD_SECRET_KEY ?? "";
  const header = c.req.header("authorization") ?? "";
  if (!header.startsWith("Bearer ") || header === "Bearer ") return c.json({ success: false, message: "", data: {} }, 401);
  if (!expected || header !== `Bearer ${expected}`) return c.json({ success: false, message: "API key is invalid", data: {} }, 403);
  await next();
});

squadSimulator.post("/transaction/initiate", async (c) => {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return c.json(squadError(400, "Invalid JSON"), 400);
  }
  const parsed = initiateBody.safeParse(raw);
  if (!parsed.success) return c.json(squadError(400, parsed.error.issues[0]?.message ?? "Invalid request"), 400);
  const body = parsed.data;
  if (await load(c.env, body.transaction_ref)) return c.json(squadError(400, "Transaction reference already exists"), 400);
  await save(c.env, {
    transaction_ref: body.transaction_ref,
    amount: body.amount,
    email: body.email,
    currency: body.currency,
    callback_url: body.callback_url,
    status: "Pending",
    created_at: new Date().toISOString(),
  });
  const origin = configFor(c.env).publicUrl;
  return c.json({
    status: 200,
    success: true,
    message: "success",
    data: {
      auth_url: null,
      access_token: null,
      merchant_info: { merchant_name: "Sandbox merchant" },
      currency: "NGN",
      recurring: { type: 0 },
      is_recurring: false,
      callback_url: body.callback_url,
      transaction_ref: body.transaction_ref,
      transaction_amount: body.amount,
      authorized_channels: ["card", "transfer", "ussd", "bank"],
      checkout_url: `${origin}/sandbox/squad/checkout/${encodeURIComponent(body.transaction_ref)}`,
    },
  });
});

squadSimulator.get("/transaction/verify/:ref", async (c) => {
  const tx = await load(c.env, c.req.param("ref"));
  if (!tx) return c.json(squadError(400, "Invalid transaction reference"), 400);
  return c.json({
    status: 200,
    success: true,
    message: "Success",
    data: {
      transaction_amount: tx.amount,
      transaction_ref: tx.transaction_ref,
      email: tx.email,
      transaction_status: tx.status,
      transaction_currency_id: tx.currency,
      created_at: tx.created_at,
      transaction_type: "Card",
      merchant_name: "Sandbox merchant",
      merchant_business_name: null,
      gateway_transaction_ref: `SBX-${tx.transaction_ref}`,
    },
  });
});

/** The webhook body Squad posts for a successful charge. */
export function squadWebhookBody(tx: { transaction_ref: string; amount: number; email: string; currency?: string }) {
  return {
    Event: "charge_successful",
    TransactionRef: tx.transaction_ref,
    Body: {
      amount: tx.amount,
      transaction_ref: tx.transaction_ref,
      gateway_ref: `SBX-${tx.transaction_ref}`,
      transaction_status: "Success",
      email: tx.email,
      merchant_id: "SBN1EBZEQ8",
      currency: tx.currency ?? "NGN",
      transaction_type: "Card",
      merchant_amount: tx.amount,
      created_at: new Date().toISOString(),
      meta: {},
      payment_information: { payment_type: "card", pan: "408408******4081", card_type: "visa" },
      is_recurring: false,
    },
  };
}

/** Posts the signed webhook to our own endpoint without the network: the same app, the same env. */
async function deliverWebhook(c: Context<AppEnv>, tx: SimTransaction): Promise<number> {
  const raw = JSON.stringify(squadWebhookBody(tx));
  const signature = (await signSquadBody(c.env.SQUAD_SECRET_KEY ?? "", raw)).toUpperCase();
  const request = new Request(new URL("/api/webhooks/squad", c.var.config.publicUrl), {
    method: "POST",
    headers: { "content-type": "application/json", "x-squad-encrypted-body": signature },
    body: raw,
  });
  const response = await c.var.loopback(request);
  return response.status;
}

async function complete(c: Context<AppEnv>, ref: string, outcome: "success" | "failed") {
  const tx = await load(c.env, ref);
  if (!tx) throw new AppError("NOT_FOUND", "No sandbox checkout with this reference.");
  if (tx.status !== "Pending") throw new AppError("INVALID_STATE", `This checkout is already ${tx.status.toLowerCase()}.`);
  tx.status = outcome === "success" ? "Success" : "Failed";
  await save(c.env, tx);
  // Squad only posts a webhook for successful charges; a failed one is learnt through the verify call.
  const webhookStatus = outcome === "success" ? await deliverWebhook(c, tx) : null;
  return { tx, webhookStatus };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const squadSandboxRoutes = new Hono<AppEnv>()
  .get("/checkout/:ref", async (c) => {
    const ref = c.req.param("ref");
    const tx = await load(c.env, ref);
    if (!tx) throw new AppError("NOT_FOUND", "No sandbox checkout with this reference.");
    const action = `/sandbox/squad/checkout/${encodeURIComponent(ref)}`;
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Squad sandbox checkout</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:4rem auto;padding:0 1rem;color:#111}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}button{font-size:1rem;padding:.7rem 1.4rem;border-radius:8px;border:0;cursor:pointer;margin-right:.5rem}
.pay{background:#16a34a;color:#fff}.fail{background:#dc2626;color:#fff}small{color:#666}</style></head>
<body><div class="card"><h1>Sandbox checkout</h1>
<p>Amount: <strong>₦${escapeHtml(formatNaira(koboToNaira(tx.amount)))}</strong></p>
<p><small>Reference ${escapeHtml(tx.transaction_ref)} · ${escapeHtml(tx.email)} · status ${escapeHtml(tx.status)}</small></p>
<p><small>No real money moves: this page stands in for Squad's hosted checkout.</small></p>
<form method="post" action="${action}/pay" style="display:inline"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="${action}/fail" style="display:inline"><button class="fail" type="submit">Fail</button></form>
</div></body></html>`);
  })
  .post("/checkout/:ref/pay", async (c) => {
    const { tx } = await complete(c, c.req.param("ref"), "success");
    return c.redirect(tx.callback_url, 303);
  })
  .post("/checkout/:ref/fail", async (c) => {
    const { tx } = await complete(c, c.req.param("ref"), "failed");
    return c.redirect(tx.callback_url, 303);
  })
  .post("/:ref/complete", validate("json", z.object({ outcome: z.enum(["success", "failed"], { message: 'outcome must be "success" or "failed"' }) })), async (c) => {
    const { tx, webhookStatus } = await complete(c, c.req.param("ref"), c.req.valid("json").outcome);
    return c.json({ transaction_ref: tx.transaction_ref, status: tx.status, webhook_status: webhookStatus });
  });
