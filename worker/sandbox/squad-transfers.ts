import { Hono, type Context } from "hono";
import { z } from "zod";
import { formatNaira, koboToNaira } from "../../schema/money";
import type { AppEnv } from "../app-env";
import type { Env } from "../config";
import { AppError } from "../lib/errors";
import { hmacSha512Hex } from "../providers/payments/signatures";
import { SQUAD_SIMULATOR_PATH } from "./squad";
import { loadState, saveState } from "./sandbox-state";

/**
 * Sandbox Squad virtual accounts, written from Squad's documents, not from our adapter:
 * https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2 (initiate, re-query, simulate payment, the
 * SUCCESS / MISMATCH / EXPIRED rules and webhooks, the x-squad-encrypted-body hash) and
 * https://docs.squadco.com/Virtual-accounts/api-specifications (customer accounts, the transaction list, the static
 * notification and its x-squad-signature). Two halves:
 * - squadTransferSimulator: Squad's API under the same base path as the card simulator, bound to the real adapter in
 *   sandbox mode, with the documented checks (401 without a key, 403 with a wrong one, 400 on a bad body).
 * - squadTransferSandboxRoutes (/sandbox/squad-transfers): a page and a JSON route that "send" a transfer (exact,
 *   short, over, late, to an unknown account) and deliver Squad's signed notification to our /api/webhooks/squad.
 * State lives in D1 (sandbox_state), shared by the page, the adapter and the tests.
 */

interface DynamicTx {
  transaction_ref: string;
  amount: number;
  email: string;
  account_number: string;
  expires_at: number;
  paid: boolean;
  attempts: { transaction_status: "SUCCESS" | "MISMATCH" | "EXPIRED"; transaction_reference: string; created_at: string; refund: boolean | null }[];
}

interface StaticCustomer {
  customer_identifier: string;
  first_name: string;
  last_name: string;
  virtual_account_number: string;
  created_at: string;
}

interface ListedTx {
  transaction_reference: string;
  virtual_account_number: string;
  principal_amount: string;
  settled_amount: string;
  fee_charged: string;
  transaction_date: string;
  transaction_indicator: "C";
  currency: "NGN";
  customer_identifier: string;
}

const SANDBOX_ACCOUNT_NAME = "SQUAD_VIRTUALNUM SANDBOX";


const dvaKey = (ref: string) => `squadva:dva:${ref}`;
const poolKey = (account: string) => `squadva:pool:${account}`;
const staticKey = (account: string) => `squadva:static:${account}`;
const staticIdKey = (id: string) => `squadva:static-id:${id}`;
const txKey = (ref: string) => `squadva:tx:${ref}`;

const squadError = (status: number, message: string) => ({ status, success: false, message, data: {} });
const ok = (data: unknown) => ({ status: 200, success: true, message: "Success", data });
const nairaText = (kobo: number) => (kobo / 100).toFixed(2);
const tenDigits = (prefix: string) => `${prefix}${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b % 10).join("")}`;

async function readJson(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    return undefined;
  }
}

export const squadTransferSimulator = new Hono<{ Bindings: Env }>().basePath(SQUAD_SIMULATOR_PATH);

squadTransferSimulator.use("*", async (c, next) => {
  const expected = c.env.SQUAD_SECRET_KEY ?? "";
  const header = c.req.header("authorization") ?? "";
  if (!header.startsWith("Bearer ") || header === "Bearer ") return c.json({ success: false, message: "", data: {} }, 401);
  if (!expected || header !== `Bearer ${expected}`) return c.json({ success: false, message: "Merchant authentication failed", data: {} }, 403);
  await next();
});

const initiateBody = z.object({
  amount: z.number().int().positive(),
  duration: z.number().int().positive(),
  email: z.string().email(),
  transaction_ref: z.string().min(1),
});

squadTransferSimulator.post("/virtual-account/initiate-dynamic-virtual-account", async (c) => {
  const parsed = initiateBody.safeParse(await readJson(c));
  if (!parsed.success) return c.json(squadError(400, parsed.error.issues[0]?.message ?? "Invalid request"), 400);
  const body = parsed.data;
  if (await loadState(c.env, dvaKey(body.transaction_ref))) return c.json(squadError(400, "Transaction reference already exists"), 400);
  const account = tenDigits("48");
  const tx: DynamicTx = {
    transaction_ref: body.transaction_ref,
    amount: body.amount,
    email: body.email,
    account_number: account,
    expires_at: Date.now() + body.duration * 1000,
    paid: false,
    attempts: [],
  };
  await saveState(c.env, dvaKey(tx.transaction_ref), tx);
  await saveState(c.env, poolKey(account), { transaction_ref: tx.transaction_ref });
  return c.json(
    ok({
      is_blocked: false,
      account_name: SANDBOX_ACCOUNT_NAME,
      account_number: account,
      expected_amount: nairaText(body.amount),
      expires_at: new Date(tx.expires_at).toISOString(),
      transaction_reference: tx.transaction_ref,
      bank: "GTBank",
      currency: "NGN",
    }),
  );
});

squadTransferSimulator.get("/virtual-account/get-dynamic-virtual-account-transactions/:ref", async (c) => {
  const tx = await loadState<DynamicTx>(c.env, dvaKey(c.req.param("ref")));
  if (!tx) return c.json(squadError(404, "Transaction not found"), 404);
  return c.json(ok({ count: tx.attempts.length, rows: [...tx.attempts].reverse() }));
});

const customerBody = z.object({
  customer_identifier: z.string().min(1),
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  middle_name: z.string().optional(),
  mobile_num: z.string().regex(/^\d{1,11}$/, "mobile_num doesn't take more than 11 digits"),
  dob: z.string().regex(/^\d{2}\/\d{2}\/\d{4}$/, "dob must be mm/dd/yyyy"),
  email: z.string().optional(),
  bvn: z.string().regex(/^\d{11}$/, "BVN is compulsory"),
  gender: z.enum(["1", "2"]),
  address: z.string().min(1),
  beneficiary_account: z.string().optional(),
});

/**
 * "There is a strict validation of the BVN against the names, Date of Birth and Phone Number": the sandbox has no BVN
 * registry, so a BVN ending in 0000 stands for one that does not match its details.
 */
squadTransferSimulator.post("/virtual-account", async (c) => {
  const parsed = customerBody.safeParse(await readJson(c));
  if (!parsed.success) return c.json(squadError(400, `Validation Failure, ${parsed.error.issues[0]?.message ?? "invalid request"}`), 400);
  const body = parsed.data;
  if (body.bvn.endsWith("0000")) return c.json(squadError(400, "Validation Failure, BVN details do not match"), 400);
  if (await loadState(c.env, staticIdKey(body.customer_identifier))) return c.json(squadError(400, "Validation Failure, Customer identifier already exists"), 400);
  const account = tenDigits("07");
  const customer: StaticCustomer = {
    customer_identifier: body.customer_identifier,
    first_name: body.first_name,
    last_name: body.last_name,
    virtual_account_number: account,
    created_at: new Date().toISOString(),
  };
  await saveState(c.env, staticKey(account), customer);
  await saveState(c.env, staticIdKey(body.customer_identifier), { virtual_account_number: account });
  return c.json({
    success: true,
    message: "Success",
    data: {
      first_name: body.first_name,
      last_name: body.last_name,
      bank_code: "058",
      virtual_account_number: account,
      beneficiary_account: body.beneficiary_account ?? null,
      customer_identifier: body.customer_identifier,
      created_at: customer.created_at,
      updated_at: customer.created_at,
    },
  });
});

/** Query All Merchant Transactions with Multiple Filters: transactionReference, startDate/endDate (MM-DD-YYYY), pages. */
squadTransferSimulator.get("/virtual-account/merchant/transactions/all", async (c) => {
  const q = c.req.query();
  const toIso = (d: string | undefined) => (d && /^\d{2}-\d{2}-\d{4}$/.test(d) ? `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}` : null);
  if ((q.startDate && !toIso(q.startDate)) || (q.endDate && !toIso(q.endDate))) return c.json(squadError(400, "Dates must be MM-DD-YYYY"), 400);
  const rows = await c.env.DB.prepare("SELECT value FROM sandbox_state WHERE key LIKE 'squadva:tx:%'").all<{ value: string }>();
  let list = (rows.results ?? []).map((r) => JSON.parse(r.value) as ListedTx);
  if (q.transactionReference) list = list.filter((t) => t.transaction_reference === q.transactionReference);
  if (q.virtualAccount) list = list.filter((t) => t.virtual_account_number === q.virtualAccount);
  const start = toIso(q.startDate);
  const end = toIso(q.endDate);
  if (start) list = list.filter((t) => t.transaction_date.slice(0, 10) >= start);
  if (end) list = list.filter((t) => t.transaction_date.slice(0, 10) <= end);
  list.sort((a, b) => (q.dir === "ASC" ? a.transaction_date.localeCompare(b.transaction_date) : b.transaction_date.localeCompare(a.transaction_date)));
  const perPage = Math.max(1, Math.min(Number(q.perPage ?? 100) || 100, 1000));
  const page = Math.max(1, Number(q.page ?? 1) || 1);
  const slice = list.slice((page - 1) * perPage, page * perPage);
  return c.json(
    ok({
      count: list.length,
      rows: slice.map((t) => ({
        transaction_reference: t.transaction_reference,
        virtual_account_number: t.virtual_account_number,
        principal_amount: t.principal_amount,
        settled_amount: t.settled_amount,
        fee_charged: t.fee_charged,
        transaction_date: t.transaction_date,
        transaction_indicator: t.transaction_indicator,
        remarks: `Transfer to ${t.virtual_account_number}`,
        currency: t.currency,
        alerted_merchant: true,
        frozen_transaction: null,
        customer: { customer_identifier: t.customer_identifier },
      })),
      query: {},
    }),
  );
});

squadTransferSimulator.get("/virtual-account/:customerIdentifier", async (c) => {
  const id = c.req.param("customerIdentifier");
  const link = await loadState<{ virtual_account_number: string }>(c.env, staticIdKey(id));
  const customer = link ? await loadState<StaticCustomer>(c.env, staticKey(link.virtual_account_number)) : null;
  if (!customer) return c.json(squadError(404, "Virtual account not found"), 404);
  return c.json(ok({ first_name: customer.first_name, last_name: customer.last_name, bank_code: "058", virtual_account_number: customer.virtual_account_number, customer_identifier: id, created_at: customer.created_at, updated_at: customer.created_at }));
});

// ---------------------------------------------------------------------------------------------------------------------
// A transfer arriving, and Squad's notification of it

export interface SimulatedNotification {
  body: Record<string, unknown>;
  headers: Record<string, string>;
  status: string;
}

/**
 * A transfer of `amountKobo` into `accountNumber`, by Squad's documented rules: into a dynamic account, SUCCESS when it
 * is the first transfer of the expected amount within the duration, MISMATCH for another amount within the duration,
 * EXPIRED after the duration or after a success; into a customer's (or any other) account, a credit notification.
 * Returns the notification Squad would post, signed with the merchant's secret key.
 */
export async function simulateTransfer(env: Env, input: { accountNumber: string; amountKobo: number; now?: number }): Promise<SimulatedNotification> {
  const now = input.now ?? Date.now();
  const secret = env.SQUAD_SECRET_KEY ?? "";
  const squadRef = `REF${new Date(now).toISOString().replace(/\D/g, "").slice(0, 14)}S${tenDigits("")}_M0${input.accountNumber}`;
  const listed: ListedTx = {
    transaction_reference: squadRef,
    virtual_account_number: input.accountNumber,
    principal_amount: nairaText(input.amountKobo),
    settled_amount: nairaText(input.amountKobo),
    fee_charged: "0.00",
    transaction_date: new Date(now).toISOString(),
    transaction_indicator: "C",
    currency: "NGN",
    customer_identifier: "",
  };
  const pool = await loadState<{ transaction_ref: string }>(env, poolKey(input.accountNumber));
  const dva = pool ? await loadState<DynamicTx>(env, dvaKey(pool.transaction_ref)) : null;
  if (dva) {
    const status = dva.paid || now > dva.expires_at ? "EXPIRED" : input.amountKobo === dva.amount ? "SUCCESS" : "MISMATCH";
    if (status === "SUCCESS") dva.paid = true;
    dva.attempts.push({ transaction_status: status, transaction_reference: dva.transaction_ref, created_at: new Date(now).toISOString(), refund: status === "SUCCESS" ? null : false });
    await saveState(env, dvaKey(dva.transaction_ref), dva);
    await saveState(env, txKey(squadRef), { ...listed, customer_identifier: dva.transaction_ref });
    const body = {
      transaction_status: status,
      merchant_reference: dva.transaction_ref,
      merchant_amount: nairaText(dva.amount),
      amount_received: nairaText(input.amountKobo),
      transaction_reference: squadRef,
      email: dva.email,
      merchant_id: "SBN1EBZEQ8",
      sub_merchant_id: null,
      transaction_type: "dynamic_virtual_account",
      date: new Date(now).toISOString(),
      sender_name: "SANDBOX SENDER",
    };
    const signed = JSON.stringify({ transaction_reference: body.transaction_reference, amount_received: body.amount_received, merchant_reference: body.merchant_reference });
    return { body, headers: { "x-squad-encrypted-body": await hmacSha512Hex(secret, signed) }, status };
  }
  const customer = await loadState<StaticCustomer>(env, staticKey(input.accountNumber));
  const identifier = customer?.customer_identifier ?? "UNKNOWN";
  await saveState(env, txKey(squadRef), { ...listed, customer_identifier: identifier });
  const body = {
    transaction_reference: squadRef,
    virtual_account_number: input.accountNumber,
    principal_amount: listed.principal_amount,
    settled_amount: listed.settled_amount,
    fee_charged: listed.fee_charged,
    transaction_date: listed.transaction_date,
    customer_identifier: identifier,
    transaction_indicator: "C",
    remarks: `Transfer FROM SANDBOX SENDER | [${identifier}] TO ${customer ? `${customer.first_name} ${customer.last_name}` : "UNKNOWN"}`,
    currency: "NGN",
    channel: "virtual-account",
    sender_name: "SANDBOX SENDER",
    meta: { freeze_transaction_ref: null, reason_for_frozen_transaction: null },
    version: "v2",
  };
  const signed = [body.transaction_reference, body.virtual_account_number, body.currency, body.principal_amount, body.settled_amount, body.customer_identifier].join("|");
  return { body, headers: { "x-squad-signature": await hmacSha512Hex(secret, signed) }, status: "C" };
}

/** Makes a dynamic account's window already closed (the "late" transfer). */
async function closeWindow(env: Env, accountNumber: string): Promise<void> {
  const pool = await loadState<{ transaction_ref: string }>(env, poolKey(accountNumber));
  const dva = pool ? await loadState<DynamicTx>(env, dvaKey(pool.transaction_ref)) : null;
  if (!dva) throw new AppError("NOT_FOUND", "No sandbox dynamic account with this number.");
  dva.expires_at = Date.now() - 1000;
  await saveState(env, dvaKey(dva.transaction_ref), dva);
}

async function expectedAmount(env: Env, accountNumber: string): Promise<number | null> {
  const pool = await loadState<{ transaction_ref: string }>(env, poolKey(accountNumber));
  const dva = pool ? await loadState<DynamicTx>(env, dvaKey(pool.transaction_ref)) : null;
  return dva?.amount ?? null;
}

const sendSchema = z.object({
  account_number: z.string().regex(/^\d{10}$/, "account_number is 10 digits").optional(),
  kind: z.enum(["exact", "short", "over", "late", "unknown"], { message: "kind is one of exact, short, over, late, unknown" }),
  /** Naira; defaults to the dynamic account's expected amount (exact, late) or ₦100 off it (short, over). */
  amount: z.number().positive().optional(),
});

/** Delivers the notification to our own webhook in-process: the same app, the same env. */
async function deliver(c: Context<AppEnv>, n: SimulatedNotification): Promise<number> {
  const request = new Request(new URL("/api/webhooks/squad", c.var.config.publicUrl), {
    method: "POST",
    headers: { "content-type": "application/json", ...n.headers },
    body: JSON.stringify(n.body),
  });
  return (await c.var.loopback(request)).status;
}

async function send(c: Context<AppEnv>, input: z.infer<typeof sendSchema>) {
  let account = input.account_number ?? "";
  let amountKobo = input.amount === undefined ? null : Math.round(input.amount * 100);
  if (input.kind === "unknown") {
    account = tenDigits("09");
    amountKobo ??= 500_000;
  } else {
    if (!account) throw new AppError("VALIDATION_FAILED", "Enter the account number to pay into.", { field: "account_number" });
    const expected = await expectedAmount(c.env, account);
    if (input.kind === "late") await closeWindow(c.env, account);
    if (amountKobo === null) {
      if (expected === null) throw new AppError("VALIDATION_FAILED", "Type the amount: this is not a dynamic account.", { field: "amount" });
      amountKobo = input.kind === "short" ? Math.max(100, expected - 10_000) : input.kind === "over" ? expected + 10_000 : expected;
    }
  }
  const notification = await simulateTransfer(c.env, { accountNumber: account, amountKobo });
  const webhookStatus = await deliver(c, notification);
  return { account_number: account, amount: koboToNaira(amountKobo), squad_status: notification.status, webhook_status: webhookStatus };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const squadTransferSandboxRoutes = new Hono<AppEnv>()
  .get("/", (c) => {
    const account = c.req.query("account") ?? "";
    const result = c.req.query("result");
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Squad sandbox bank transfer</title>
<style>body{font-family:system-ui,sans-serif;max-width:460px;margin:3rem auto;padding:0 1rem;color:#111}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}label{display:block;margin:.6rem 0 .2rem}input{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box}
button{font-size:.95rem;padding:.6rem 1rem;border-radius:8px;border:0;cursor:pointer;margin:.6rem .4rem 0 0;background:#1d4ed8;color:#fff}small{color:#666}</style></head>
<body><div class="card"><h1>Send a bank transfer</h1>
<p><small>Stands in for a customer's banking app: the transfer lands in Squad's sandbox and Squad's signed notification is sent to this server. No real money moves.</small></p>
${result ? `<p role="status"><strong>${escapeHtml(result)}</strong></p>` : ""}
<form method="post" action="/sandbox/squad-transfers/send">
<label for="account_number">Account number</label><input id="account_number" name="account_number" inputmode="numeric" value="${escapeHtml(account)}">
<label for="amount">Amount (₦, optional: the expected amount by default)</label><input id="amount" name="amount" inputmode="decimal">
<button name="kind" value="exact">Exact</button><button name="kind" value="short">Short (₦100 less)</button><button name="kind" value="over">Over (₦100 more)</button>
<button name="kind" value="late">Late (after expiry)</button><button name="kind" value="unknown">To an unknown account</button>
</form></div></body></html>`);
  })
  .post("/send", async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (type.includes("application/json")) {
      const parsed = sendSchema.safeParse(await readJson(c));
      if (!parsed.success) throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid request");
      return c.json(await send(c, parsed.data));
    }
    const form = await c.req.parseBody();
    const amount = String(form.amount ?? "").trim();
    const parsed = sendSchema.safeParse({
      account_number: String(form.account_number ?? "").trim() || undefined,
      kind: form.kind,
      amount: amount ? Number(amount) : undefined,
    });
    if (!parsed.success) throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid request");
    const sent = await send(c, parsed.data);
    const result = `Sent ₦${formatNaira(sent.amount)} to ${sent.account_number}: Squad says ${sent.squad_status}, our webhook answered ${sent.webhook_status}.`;
    return c.redirect(`/sandbox/squad-transfers?account=${encodeURIComponent(sent.account_number)}&result=${encodeURIComponent(result)}`, 303);
  });
