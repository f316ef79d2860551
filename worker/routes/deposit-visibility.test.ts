import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { putSetting } from "../services/kernel";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { makeOperator } from "../test/operators";
import { createInvoiceViaApi, disarmInvoiceWatchers } from "../test/payment-fixtures";
import { moneyViolations } from "../test/reliability/invariants";

/**
 * Issue 28, "Crypto that is held or refused is visible": an underpayment, an arrival in another coin and an
 * overpayment's excess each show, in the history (GET /api/get-transaction) and on the invoice card (GET
 * /api/now-status), what arrived, what was credited and what happens next; an operator's decision reaches the customer
 * as a history row and an e-mail. The ledger underneath is checked every time.
 */

afterEach(async () => {
  await disarmInvoiceWatchers();
  await expectLedgerBalanced();
  expect(await moneyViolations()).toEqual([]);
});

const RATE = 1500; // ₦ per USD: a $10 invoice is ₦15,000.

async function invoiceFor(usd = 10) {
  await putSetting(db(), "rate_settings", { cryptomin: 5, rate: RATE, squadmin: 1000 });
  const user = await createUser();
  const invoice = await createInvoiceViaApi(user, usd, "USDTTRC20");
  return { user, invoice };
}

async function simulate(paymentId: string, body: Record<string, unknown>) {
  const res = await api(`/sandbox/nowpayments/${paymentId}/status`, { json: body });
  expect(res.status).toBe(200);
}

type Row = { id: string; status: string; amount: number; note: string; detail?: string };
const history = async (token: string) => (await api("/api/get-transaction", { token })).data as Row[];
const invoiceStatus = async (token: string, paymentId: string) => (await api(`/api/now-status?payment_id=${paymentId}`, { token })).data;
const mailsTo = (email: string) =>
  env.DB.prepare('SELECT subject, body AS text FROM email_outbox WHERE "to" = ? ORDER BY id').bind(email).all<{ subject: string; text: string }>().then((r) => r.results);

describe("crypto deposits that did not match their invoice are visible to the customer", () => {
  it("an underpayment is credited at what arrived and says the shortfall in the history and on the invoice card", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "partially_paid", actually_paid: invoice.pay_amount / 2 });
    expect(await balanceOf(user.id)).toBe(750_000);

    const [row] = await history(user.token);
    expect(row).toMatchObject({ status: "successful", amount: 7500 });
    expect(row.detail).toContain(`${invoice.pay_amount / 2} USDTTRC20 of ${invoice.pay_amount} USDTTRC20 arrived`);
    expect(row.detail).toContain("₦7,500.00 credited of the ₦15,000.00 invoice (₦7,500.00 short)");

    const card = await invoiceStatus(user.token, invoice.payment_id);
    expect(card).toMatchObject({ credited: true, outcome: { state: "underpaid", credited: 7500, invoiced: 15000 } });
  });

  it("another coin is held: a pending row says it was received and is being checked, nothing credited", async () => {
    const { user, invoice } = await invoiceFor(10);
    await simulate(invoice.payment_id, { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 });
    expect(await balanceOf(user.id)).toBe(0);

    const rows = await history(user.token);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", amount: 15000, direction: "none" });
    expect(rows[0].detail).toMatch(/^0\.0002 BTC arrived, but the invoice asked for [\d.]+ USDTTRC20\. Nothing credited yet\. Received, being checked by support/);

    const card = await invoiceStatus(user.token, invoice.payment_id);
    expect(card).toMatchObject({ credited: false, payment_status: "review", outcome: { state: "held", arrived: "0.0002 BTC", credited: 0 } });
  });

  it("an overpayment credits the invoice and shows its excess held; support's refusal and credit reach the history and an e-mail", async () => {
    const operator = await makeOperator();
    const over = await invoiceFor(10);
    await simulate(over.invoice.payment_id, { payment_status: "finished", actually_paid: over.invoice.pay_amount * 1.5 });
    expect(await balanceOf(over.user.id)).toBe(1_500_000);
    let rows = await history(over.user.token);
    const excess = rows.find((r) => r.status === "pending")!;
    expect(excess).toMatchObject({ amount: 7500 });
    expect(excess.detail).toContain("the invoice was credited; the extra (about ₦7,500.00) is not credited yet. Received, being checked by support");
    expect(rows.find((r) => r.status === "successful")).toMatchObject({ amount: 15000 });

    // Refused: the pending row becomes a failed one that says no money moved; an e-mail says the same.
    const refuse = await api(`/api/admin/reviews/${excess.id}/resolve`, { token: operator.token, json: { action: "refuse", reason: "sent by mistake, returned on chain" } });
    expect(refuse.status).toBe(200);
    rows = await history(over.user.token);
    const refused = rows.find((r) => r.id === excess.id)!;
    expect(refused.status).toBe("failed");
    expect(refused.detail).toContain("could not credit it: no money moved");
    expect(refused.detail).not.toContain("returned on chain"); // the operator's reason stays internal
    expect(await balanceOf(over.user.id)).toBe(1_500_000);
    const refusedMail = (await mailsTo(over.user.email)).at(-1)!;
    expect(refusedMail.subject).toBe("Your deposit was checked and not credited");
    expect(refusedMail.text).toContain("could not credit it");

    // Another coin credited by support: the ledger's "(reviewed)" row says so, the held row is gone, an e-mail is sent.
    const other = await invoiceFor(10);
    await simulate(other.invoice.payment_id, { payment_status: "finished", pay_currency: "BTC", actually_paid: 0.0002 });
    const held = await env.DB.prepare("SELECT id FROM payment_reviews WHERE user_id = ?").bind(other.user.id).first<{ id: string }>();
    const credit = await api(`/api/admin/reviews/${held!.id}/resolve`, { token: operator.token, json: { action: "credit", amount: 12000, reason: "BTC at the day's rate" } });
    expect(credit.status).toBe(200);
    expect(await balanceOf(other.user.id)).toBe(1_200_000);
    rows = await history(other.user.token);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "successful", amount: 12000, note: "Wallet deposit (BTC, reviewed)" });
    expect(rows[0].detail).toBe("Support checked 0.0002 BTC and credited ₦12,000.00 to your wallet.");
    expect(await invoiceStatus(other.user.token, other.invoice.payment_id)).toMatchObject({ credited: true, outcome: { state: "support_credited", credited: 12000 } });
    const creditedMail = (await mailsTo(other.user.email)).at(-1)!;
    expect(creditedMail.subject).toBe("Your deposit was checked and credited");
    expect(creditedMail.text).toContain("credited ₦12,000.00");
  });
});
