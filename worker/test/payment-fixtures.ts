import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { signNowPaymentsBody, signSquadBody } from "../providers/payments/signatures";
import { squadWebhookBody } from "../sandbox/squad";
import { api, type TestUser } from "./helpers";

/** Shared by the wallet tests: drive the sandbox providers and the webhooks the way Squad and NOWPayments would. */

export async function startCardPaymentViaApi(user: TestUser, amountNaira = 5000): Promise<string> {
  const res = await api("/api/initialize-transaction", { token: user.token, json: { amount: amountNaira, currency: "NGN" } });
  expect(res.status).toBe(200);
  return res.data.data.data.transaction_ref as string;
}

export function squadWebhookRaw(ref: string, amountKobo: number, email = "someone@example.com"): string {
  return JSON.stringify(squadWebhookBody({ transaction_ref: ref, amount: amountKobo, email }));
}

export async function postSquadWebhook(raw: string, signature?: string | null) {
  const sig = signature === undefined ? (await signSquadBody(env.SQUAD_SECRET_KEY!, raw)).toUpperCase() : signature;
  return api("/api/webhooks/squad", {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", ...(sig === null ? {} : { "x-squad-encrypted-body": sig }) },
  });
}

/** Changes what the Squad simulator's verify call will say, without sending any webhook. */
export async function setSquadSimulator(ref: string, patch: { status?: string; amount?: number }) {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(`squad:${ref}`).first<{ value: string }>();
  const value = { ...JSON.parse(row!.value), ...patch };
  await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?").bind(JSON.stringify(value), `squad:${ref}`).run();
}

export async function setNowSimulator(paymentId: string, patch: { payment_status?: string; actually_paid?: number }) {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(`nowpayments:${paymentId}`).first<{ value: string }>();
  const value = { ...JSON.parse(row!.value), ...patch };
  await env.DB.prepare("UPDATE sandbox_state SET value = ? WHERE key = ?").bind(JSON.stringify(value), `nowpayments:${paymentId}`).run();
}

export async function createInvoiceViaApi(user: TestUser, usd = 10, payCurrency = "USDTTRC20") {
  const res = await api("/api/invoice", { token: user.token, json: { price_amount: usd, pay_currency: payCurrency, order_description: "deposit" } });
  expect(res.status).toBe(200);
  return res.data as { payment_id: string; pay_amount: number; pay_currency: string; network: string; pay_address: string; expires_at: string };
}

export async function postNowIpn(body: unknown, opts: { signature?: string | null; raw?: string } = {}) {
  const sig = opts.signature === undefined ? await signNowPaymentsBody(env.NOWPAYMENTS_IPN_SECRET!, body) : opts.signature;
  return api("/api/webhooks/nowpayments", {
    method: "POST",
    body: opts.raw ?? JSON.stringify(body),
    headers: { "content-type": "application/json", ...(sig === null ? {} : { "x-nowpayments-sig": sig }) },
  });
}

export async function ledgerCount(key: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM ledger WHERE key = ?").bind(key).first<{ n: number }>();
  return row?.n ?? 0;
}

export async function paymentRow(where: { id?: string; providerPaymentId?: string }) {
  const sql = where.id ? "SELECT * FROM payments WHERE id = ?" : "SELECT * FROM payments WHERE provider_payment_id = ?";
  return env.DB.prepare(sql).bind(where.id ?? where.providerPaymentId).first<{ id: string; status: string; amount_kobo: number; user_id: string; expires_at: number }>();
}

/** Alarms outlive a test: every invoice watcher created in this file is disarmed after each test. */
export async function disarmInvoiceWatchers() {
  const { results } = await env.DB.prepare("SELECT id FROM payments WHERE provider = 'nowpayments'").all<{ id: string }>();
  for (const { id } of results) {
    const stub = env.INVOICE.get(env.INVOICE.idFromName(id));
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    });
  }
}
