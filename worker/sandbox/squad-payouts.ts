import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import type { Env } from "../config";
import { AppError } from "../lib/errors";
import { SQUAD_SIMULATOR_PATH } from "./squad";
import { loadState, saveState } from "./sandbox-state";
import { SANDBOX_SQUAD_MERCHANT_ID } from "../providers/payments/squad-payouts";

/**
 * Sandbox Squad payouts, written from Squad's Transfer API document
 * (https://squadinc.gitbook.io/squad-api-documentation/transfer-api), not from our adapter. Two halves:
 * - squadPayoutSimulator: the documented API under the same base path as the other Squad simulators, bound to the real
 *   adapter in sandbox mode: 401 without a key, 403 with a wrong one; POST /payout/account/lookup (a bank account the
 *   sandbox knows, else 404 "Account not found"); POST /payout/transfer (400 without the merchant-id prefix on the
 *   reference or on a reused one, the amount in kobo as digits, currency_id NGN only; 200 with a NIP reference, or the
 *   scripted 424 / failure / reversal); POST /payout/requery (the transfer's transaction_status, 412 once reversed,
 *   404 for a reference never received); GET /payout/list (page, perPage, dir).
 * - squadPayoutSandboxRoutes (/sandbox/squad-payouts): open a bank account with a holder's name (what lookups find),
 *   script the next transfer (timeout: 424 then the re-query says success; fail: 424 then failed; reverse: paid now and
 *   reversed by the next re-query), reverse a paid transfer later, and a page doing the same by hand.
 * State lives in D1 (sandbox_state), shared by the page, the adapter and the tests.
 */

/** The sandbox merchant's ID (the adapter's file holds it: the operator CLI reads it too). */
export { SANDBOX_SQUAD_MERCHANT_ID };

export type NextTransfer = "timeout" | "fail" | "reverse";

interface SimAccount {
  bank_code: string;
  account_number: string;
  account_name: string;
}

interface SimTransfer {
  transaction_reference: string;
  amount: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  remark: string;
  transaction_status: "success" | "failed" | "reversed" | "pending";
  nip_transaction_reference: string | null;
  /** Reversed by the next re-query (the scripted "reverse"). */
  reverse_on_requery: boolean;
  created_at: string;
}

const accountKey = (bank: string, number: string) => `squadpo:acct:${bank}:${number}`;
const transferKey = (ref: string) => `squadpo:tx:${ref}`;
const NEXT_KEY = "squadpo:next";


async function take(env: Env, key: string): Promise<string | null> {
  const row = await env.DB.prepare("DELETE FROM sandbox_state WHERE key = ? RETURNING value").bind(key).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as string) : null;
}

const squadError = (status: number, message: string) => ({ status, success: false, message, data: {} });
const ok = (data: unknown) => ({ status: 200, success: true, message: "Success", data });
const nipRef = () => `1100${[...crypto.getRandomValues(new Uint8Array(26))].map((b) => b % 10).join("")}`;

async function readJson(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    return undefined;
  }
}

function transferData(t: SimTransfer) {
  return {
    transaction_reference: t.transaction_reference,
    response_description: t.transaction_status === "success" ? "Approved or completed successfully" : t.transaction_status,
    currency_id: "NGN",
    amount: t.amount,
    nip_transaction_reference: t.nip_transaction_reference,
    account_number: t.account_number,
    account_name: t.account_name,
    destination_institution_name: t.bank_code,
    transaction_status: t.transaction_status,
  };
}

export const squadPayoutSimulator = new Hono<{ Bindings: Env }>().basePath(SQUAD_SIMULATOR_PATH);

squadPayoutSimulator.use("*", async (c, next) => {
  const expected = c.env.SQUAD_SECRET_KEY ?? "";
  const header = c.req.header("authorization") ?? "";
  if (!header.startsWith("Bearer ") || header === "Bearer ") return c.json({ success: false, message: "", data: {} }, 401);
  if (!expected || header !== `Bearer ${expected}`) return c.json({ success: false, message: "Merchant authentication failed", data: {} }, 403);
  await next();
});

const lookupBody = z.object({ bank_code: z.string().regex(/^\d{6}$/, "bank_code is a NIP code"), account_number: z.string().regex(/^\d{10}$/, "account_number is 10 digits") });

squadPayoutSimulator.post("/payout/account/lookup", async (c) => {
  const parsed = lookupBody.safeParse(await readJson(c));
  if (!parsed.success) return c.json(squadError(400, parsed.error.issues[0]?.message ?? "Bad request"), 400);
  const account = await loadState<SimAccount>(c.env, accountKey(parsed.data.bank_code, parsed.data.account_number));
  if (!account) return c.json(squadError(404, "Account not found"), 404);
  return c.json(ok({ account_name: account.account_name, account_number: account.account_number }));
});

const transferBody = z.object({
  transaction_reference: z.string().min(1),
  amount: z.string().regex(/^\d+$/, "amount is in kobo"),
  bank_code: z.string().regex(/^\d{6}$/),
  account_number: z.string().regex(/^\d{10}$/),
  account_name: z.string().min(1),
  currency_id: z.literal("NGN", { message: "currency_id takes only NGN" }),
  remark: z.string().min(1),
});

squadPayoutSimulator.post("/payout/transfer", async (c) => {
  const parsed = transferBody.safeParse(await readJson(c));
  if (!parsed.success) return c.json(squadError(400, parsed.error.issues[0]?.message ?? "Bad request"), 400);
  const body = parsed.data;
  // The sandbox's merchant, or the one a live-mode test configures (SQUAD_MERCHANT_ID): Squad refuses any other prefix.
  const merchants = [SANDBOX_SQUAD_MERCHANT_ID, c.env.SQUAD_MERCHANT_ID].filter(Boolean);
  if (!merchants.some((m) => body.transaction_reference.startsWith(`${m}_`))) {
    return c.json(squadError(400, "Transaction reference must be prefixed with your merchant ID"), 400);
  }
  if (await loadState(c.env, transferKey(body.transaction_reference))) return c.json(squadError(400, "Duplicate transaction reference"), 400);
  const account = await loadState<SimAccount>(c.env, accountKey(body.bank_code, body.account_number));
  if (!account) return c.json(squadError(404, "Account not found"), 404);
  const next = (await take(c.env, NEXT_KEY)) as NextTransfer | null;
  const transfer: SimTransfer = {
    ...body,
    transaction_status: next === "fail" ? "failed" : "success",
    nip_transaction_reference: next === "fail" ? null : nipRef(),
    reverse_on_requery: next === "reverse",
    created_at: new Date().toISOString(),
  };
  await saveState(c.env, transferKey(body.transaction_reference), transfer);
  if (next === "timeout" || next === "fail") return c.json(squadError(424, "Transaction timeout, please requery"), 424);
  return c.json(ok(transferData(transfer)));
});

squadPayoutSimulator.post("/payout/requery", async (c) => {
  const parsed = z.object({ transaction_reference: z.string().min(1) }).safeParse(await readJson(c));
  if (!parsed.success) return c.json(squadError(400, "transaction_reference is required"), 400);
  const transfer = await loadState<SimTransfer>(c.env, transferKey(parsed.data.transaction_reference));
  if (!transfer) return c.json(squadError(404, "Transaction not found"), 404);
  if (transfer.reverse_on_requery) {
    transfer.transaction_status = "reversed";
    transfer.reverse_on_requery = false;
    await saveState(c.env, transferKey(transfer.transaction_reference), transfer);
  }
  if (transfer.transaction_status === "reversed") return c.json(squadError(412, "Transaction reversed"), 412);
  return c.json(ok(transferData(transfer)));
});

squadPayoutSimulator.get("/payout/list", async (c) => {
  const page = Math.max(1, Number(c.req.query("page") ?? 1) || 1);
  const perPage = Math.min(100, Math.max(1, Number(c.req.query("perPage") ?? 20) || 20));
  const dir = (c.req.query("dir") ?? "DESC").toUpperCase() === "ASC" ? "ASC" : "DESC";
  const rows = await c.env.DB.prepare(`SELECT value FROM sandbox_state WHERE key LIKE 'squadpo:tx:%' ORDER BY updated_at ${dir} LIMIT ? OFFSET ?`)
    .bind(perPage, (page - 1) * perPage)
    .all<{ value: string }>();
  return c.json(ok(rows.results.map((r) => transferData(JSON.parse(r.value) as SimTransfer))));
});

// ---------------------------------------------------------------------------------------------------------------------
// The sandbox's own controls

const openAccountSchema = z.object({
  bank_code: z.string().regex(/^\d{6}$/, "bank_code is a NIP code"),
  account_number: z.string().regex(/^\d{10}$/, "account_number is 10 digits"),
  account_name: z.string().trim().min(2).max(120),
});
const nextSchema = z.object({ outcome: z.enum(["timeout", "fail", "reverse"]) });
const reverseSchema = z.object({ reference: z.string().min(1) });

/** Opens a bank account the lookups will find (tests and journeys give their customer's own name). */
export async function openSandboxBankAccount(env: Env, account: SimAccount): Promise<void> {
  await saveState(env, accountKey(account.bank_code, account.account_number), { ...account, account_name: account.account_name.toUpperCase() });
}

/** Scripts the next transfer's outcome. */
export async function scriptNextTransfer(env: Env, outcome: NextTransfer): Promise<void> {
  await saveState(env, NEXT_KEY, outcome);
}

/** Forgets a scripted outcome no transfer used (the next transfer is paid, as by default). */
export async function clearNextTransfer(env: Env): Promise<void> {
  await take(env, NEXT_KEY);
}

/** Reverses a paid transfer (a day later, say): the next re-query answers 412. */
export async function reverseSandboxTransfer(env: Env, reference: string): Promise<boolean> {
  const transfer = await loadState<SimTransfer>(env, transferKey(reference));
  if (!transfer || transfer.transaction_status !== "success") return false;
  await saveState(env, transferKey(reference), { ...transfer, transaction_status: "reversed" });
  return true;
}

async function bodyOf(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (type.includes("application/json")) return readJson(c);
  return Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
}

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("VALIDATION_FAILED", result.error.issues[0]?.message ?? "Invalid request");
  return result.data;
}

export const squadPayoutSandboxRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Squad sandbox payouts</title>
<style>body{font-family:system-ui,sans-serif;max-width:460px;margin:3rem auto;padding:0 1rem;color:#111}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem;margin-bottom:1rem}label{display:block;margin:.6rem 0 .2rem}input{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box}
button{font-size:.95rem;padding:.6rem 1rem;border-radius:8px;border:0;cursor:pointer;margin:.6rem .4rem 0 0;background:#1d4ed8;color:#fff}</style></head>
<body><div class="card"><h1>Payouts: the next transfer</h1>
<form method="post" action="/sandbox/squad-payouts/next">
<button name="outcome" value="timeout">Times out (424, then paid)</button><button name="outcome" value="fail">Fails (424, then failed)</button>
<button name="outcome" value="reverse">Is reversed later</button></form></div>
<div class="card"><h2>Open a bank account</h2><form method="post" action="/sandbox/squad-payouts/accounts">
<label for="bank_code">Bank (NIP code)</label><input id="bank_code" name="bank_code" value="000013">
<label for="account_number">Account number</label><input id="account_number" name="account_number" inputmode="numeric">
<label for="account_name">Holder's name</label><input id="account_name" name="account_name">
<button>Open</button></form></div></body></html>`),
  )
  .post("/accounts", async (c) => {
    const account = parsed(openAccountSchema, await bodyOf(c));
    await openSandboxBankAccount(c.env, account);
    return c.json({ opened: true, ...account, account_name: account.account_name.toUpperCase() });
  })
  .post("/next", async (c) => {
    const { outcome } = parsed(nextSchema, await bodyOf(c));
    await scriptNextTransfer(c.env, outcome);
    return c.json({ next: outcome });
  })
  .post("/reverse", async (c) => {
    const { reference } = parsed(reverseSchema, await bodyOf(c));
    if (!(await reverseSandboxTransfer(c.env, reference))) throw new AppError("NOT_FOUND", "No paid transfer with that reference.");
    return c.json({ reversed: reference });
  });
