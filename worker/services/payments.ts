import { and, desc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../schema/money";
import { INVOICE_LIFETIME_MS, type InvoiceAnswer, type PaymentConfirmation } from "../../schema/wallet";
import { getDb, type Db } from "../db/client";
import { payments, users } from "../db/tables";
import { configFor, type Env } from "../env";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import type { NowPaymentStatus } from "../providers/payments/nowpayments";
import { paymentProviders, type PaymentProviders } from "../providers/payments/providers";
import { ledgerInsert } from "./ledger";
import { notify } from "./notify";
import { referralRewardStatement } from "./referrals";
import { getSetting } from "./settings";

/**
 * Funding the wallet. A payment row records each attempt (Squad checkout or NOWPayments invoice); money moves only
 * through the ledger, in one D1 batch with the payment's status change. The ledger key (fund:squad:<ref>,
 * fund:now:<payment_id>) is UNIQUE and inserted with ON CONFLICT DO NOTHING, so any number of webhooks, callbacks,
 * verify clicks and alarms, in any order and concurrently, credit a payment exactly once.
 */

export type Payment = typeof payments.$inferSelect;

export interface PaymentDeps {
  env: Env;
  providers: PaymentProviders;
  /** Keeps best-effort work (realtime notifications) alive after the answer is sent. */
  defer: (work: Promise<unknown>) => void;
}

export const CARD_DEPOSIT_NOTE = "Wallet deposit (card)";
export const cryptoDepositNote = (payCurrency: string | null) => `Wallet deposit (${(payCurrency ?? "crypto").toUpperCase()})`;

/** Upper bound on one card deposit: far above real use, far below integer trouble. */
const MAX_CARD_DEPOSIT_NAIRA = 10_000_000;
const MAX_CRYPTO_DEPOSIT_USD = 10_000;

/** NOWPayments statuses that mean the money is on its way: never expire an invoice in one of these. */
const IN_FLIGHT: NowPaymentStatus[] = ["confirming", "confirmed", "sending"];
/** Statuses after which nothing more is expected (a late 'finished' still credits: the provider has the money). */
const FINAL = new Set(["credited", "failed", "expired", "refunded", "abandoned", "amount_mismatch"]);
const STATUS_RANK: Record<string, number> = {
  pending: 0,
  waiting: 0,
  confirming: 1,
  confirmed: 2,
  sending: 3,
  partially_paid: 4,
  failed: 5,
  expired: 5,
  refunded: 5,
  abandoned: 5,
  amount_mismatch: 5,
  credited: 6,
};

function newReference(prefix: string): string {
  const random = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}-${Date.now().toString(36).toUpperCase()}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------------------------------
// Card (Squad)

export async function startCardPayment(
  deps: PaymentDeps,
  user: { id: string; email: string; username: string },
  amountNaira: number,
  origin: string,
): Promise<{ checkout_url: string; transaction_ref: string }> {
  const db = getDb(deps.env.DB);
  const { squadmin } = await getSetting(db, "rate_settings");
  if (amountNaira < squadmin) throw new AppError("VALIDATION_FAILED", `min amount is ₦${squadmin}`, { field: "amount" });
  if (amountNaira > MAX_CARD_DEPOSIT_NAIRA) {
    throw new AppError("VALIDATION_FAILED", `max amount is ₦${MAX_CARD_DEPOSIT_NAIRA.toLocaleString("en-NG")}`, { field: "amount" });
  }
  const amountKobo = nairaToKobo(amountNaira);
  const ref = newReference("VN");
  await db.insert(payments).values({ id: ref, userId: user.id, provider: "squad", status: "pending", amountKobo, currency: "NGN" });
  try {
    const checkout = await deps.providers.squad.initiate({
      amountKobo,
      email: user.email,
      transactionRef: ref,
      callbackUrl: `${origin}/#/dashboard/1?reference=${encodeURIComponent(ref)}`,
      customerName: user.username,
    });
    await db.update(payments).set({ checkoutUrl: checkout.checkoutUrl, updatedAt: Date.now() }).where(eq(payments.id, ref));
    return { checkout_url: checkout.checkoutUrl, transaction_ref: ref };
  } catch (err) {
    // Nothing was charged: the attempt is recorded as failed so it is visible, and the customer can try again.
    await db.update(payments).set({ status: "failed", updatedAt: Date.now() }).where(eq(payments.id, ref));
    throw err;
  }
}

/**
 * Asks Squad about a card payment and credits it when Squad says it succeeded for exactly the amount and currency we
 * asked for. Used by the webhook, the dashboard's return polling, Verify Payment and the sweep: the client is never
 * trusted, and neither is a webhook body beyond being the trigger. `ownerId` limits the lookup to the caller's payments.
 * Returns null for an unknown (or someone else's) reference.
 */
export async function confirmCardPayment(deps: PaymentDeps, ref: string, ownerId?: string): Promise<PaymentConfirmation | null> {
  const db = getDb(deps.env.DB);
  const payment = await findPayment(db, { id: ref, provider: "squad", ownerId });
  if (!payment) return null;
  if (payment.status === "credited") return "success";
  const verification = await deps.providers.squad.verify(ref);
  if (!verification) return payment.status === "pending" ? "pending" : "failed";
  if (verification.status === "success") {
    if (verification.amountKobo !== payment.amountKobo || verification.currency !== "NGN") {
      log("warn", "squad amount or currency mismatch: not credited", {
        ref,
        expectedKobo: payment.amountKobo,
        verifiedKobo: verification.amountKobo,
        currency: verification.currency,
      });
      await moveStatus(db, payment, "amount_mismatch");
      return "failed";
    }
    await creditPayment(deps, payment, `fund:squad:${ref}`, CARD_DEPOSIT_NOTE);
    return "success";
  }
  if (verification.status === "failed" || verification.status === "abandoned") {
    if (await moveStatus(db, payment, verification.status)) {
      deps.defer(notify(deps.env, payment.userId, { kind: "payment.failed", paymentId: ref, status: verification.status, message: "Transaction not successful" }));
    }
    return "failed";
  }
  return FINAL.has(payment.status) ? "failed" : "pending";
}

/** The caller's card payments still waiting for confirmation (the Fund Wallet page's pending card), last 24 h. */
export async function listPendingCardPayments(db: Db, userId: string) {
  const rows = await db
    .select({ id: payments.id, amountKobo: payments.amountKobo, currency: payments.currency, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.provider, "squad"),
        eq(payments.status, "pending"),
        gt(payments.createdAt, Date.now() - 24 * 3600_000),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(50);
  return rows.map((r) => ({ ref: r.id, amount: koboToNaira(r.amountKobo), currency: r.currency, created_at: new Date(r.createdAt).toISOString() }));
}

// ---------------------------------------------------------------------------------------------------------------------
// Crypto (NOWPayments)

export async function createInvoice(
  deps: PaymentDeps,
  user: { id: string },
  priceUsd: number,
  payCurrency: string,
  origin: string,
): Promise<InvoiceAnswer> {
  const db = getDb(deps.env.DB);
  const { cryptomin, rate } = await getSetting(db, "rate_settings");
  if (priceUsd < cryptomin) throw new AppError("VALIDATION_FAILED", `Minimum amount is $${cryptomin}`, { field: "price_amount" });
  if (priceUsd > MAX_CRYPTO_DEPOSIT_USD) throw new AppError("VALIDATION_FAILED", `Maximum amount is $${MAX_CRYPTO_DEPOSIT_USD}`, { field: "price_amount" });
  const priceUsdCents = Math.round(priceUsd * 100);
  // The naira rate is fixed now, when the customer sees the invoice, and used for the credit whenever it arrives.
  const rateKoboPerUsd = Math.round(rate * 100);
  const amountKobo = Math.round((priceUsdCents * rateKoboPerUsd) / 100);
  const currency = payCurrency.toUpperCase();
  const id = newReference("NP");
  await db.insert(payments).values({
    id,
    userId: user.id,
    provider: "nowpayments",
    status: "pending",
    amountKobo,
    currency,
    priceUsdCents,
    rateKoboPerUsd,
    payCurrency: currency,
  });
  let created;
  try {
    created = await deps.providers.nowpayments.createPayment({
      priceAmountUsd: priceUsdCents / 100,
      payCurrency: currency,
      orderId: id,
      orderDescription: "deposit",
      ipnCallbackUrl: `${origin}/api/webhooks/nowpayments`,
    });
  } catch (err) {
    await db.update(payments).set({ status: "failed", updatedAt: Date.now() }).where(eq(payments.id, id));
    throw err;
  }
  const expiresAt = Date.now() + INVOICE_LIFETIME_MS;
  await db
    .update(payments)
    .set({
      providerPaymentId: created.paymentId,
      status: created.paymentStatus === "waiting" ? "waiting" : created.paymentStatus,
      payAddress: created.payAddress,
      payAmount: created.payAmount,
      payCurrency: (created.payCurrency ?? currency).toUpperCase(),
      network: created.network,
      expiresAt,
      updatedAt: Date.now(),
    })
    .where(eq(payments.id, id));
  try {
    const watcher = deps.env.INVOICE.get(deps.env.INVOICE.idFromName(id));
    await watcher.watch({ paymentId: id, expiresAt, origin });
  } catch (err) {
    // The cron sweep settles invoices whose watcher never started.
    log("warn", "invoice watcher not started", { paymentId: id, error: err instanceof Error ? err.message : String(err) });
  }
  return {
    payment_id: created.paymentId,
    pay_amount: Number(created.payAmount),
    pay_currency: (created.payCurrency ?? currency).toUpperCase(),
    network: created.network,
    pay_address: created.payAddress ?? "",
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/** A verified IPN: applies its status to the payment it names. Unknown payments and mismatched orders change nothing. */
export async function applyNowPaymentsIpn(
  deps: PaymentDeps,
  ipn: { paymentId: string; status: NowPaymentStatus; orderId: string | null },
): Promise<"credited" | "updated" | "unchanged" | "unknown"> {
  const db = getDb(deps.env.DB);
  const payment = await findPayment(db, { providerPaymentId: ipn.paymentId, provider: "nowpayments" });
  if (!payment) return "unknown";
  if (ipn.orderId && ipn.orderId !== payment.id) {
    log("warn", "nowpayments ipn order_id does not match the payment: ignored", { paymentId: ipn.paymentId });
    return "unknown";
  }
  return applyNowStatus(deps, payment, ipn.status);
}

async function applyNowStatus(deps: PaymentDeps, payment: Payment, status: NowPaymentStatus): Promise<"credited" | "updated" | "unchanged"> {
  if (payment.status === "credited") return "credited";
  if (status === "finished") {
    await creditPayment(deps, payment, `fund:now:${payment.providerPaymentId}`, cryptoDepositNote(payment.payCurrency));
    return "credited";
  }
  const moved = await moveStatus(getDb(deps.env.DB), payment, status);
  if (moved && (status === "failed" || status === "expired" || status === "refunded" || status === "partially_paid")) {
    deps.defer(
      notify(deps.env, payment.userId, {
        kind: "payment.failed",
        paymentId: payment.providerPaymentId ?? payment.id,
        status,
        message: NOW_FAILURE_MESSAGES[status],
      }),
    );
  }
  return moved ? "updated" : "unchanged";
}

const NOW_FAILURE_MESSAGES = {
  failed: "The crypto payment failed. Nothing was charged to your wallet.",
  expired: "The invoice expired before a payment arrived.",
  refunded: "The crypto payment was refunded to you.",
  partially_paid: "Only part of the amount arrived. Please contact support.",
} as const;

/** The caller's invoice status (GET /now-status). null for an unknown or someone else's payment. */
export async function nowPaymentStatus(db: Db, userId: string, providerPaymentId: string) {
  const payment = await findPayment(db, { providerPaymentId, provider: "nowpayments", ownerId: userId });
  if (!payment) return null;
  const credited = payment.status === "credited";
  const paymentStatus = credited ? "finished" : payment.status === "pending" ? "waiting" : payment.status;
  return { payment_status: paymentStatus, credited };
}

/**
 * The invoice watcher's alarm (and the sweep): before giving an invoice up, ask NOWPayments, so a lost IPN never loses
 * a deposit. Returns whether the invoice is settled; when money is still in flight, it asks to be called again.
 */
export async function settleInvoice(deps: PaymentDeps, paymentId: string): Promise<{ settled: boolean }> {
  const db = getDb(deps.env.DB);
  const payment = await findPayment(db, { id: paymentId, provider: "nowpayments" });
  if (!payment || FINAL.has(payment.status)) return { settled: true };
  if (!payment.providerPaymentId) {
    await moveStatus(db, payment, "failed");
    return { settled: true };
  }
  const remote = await deps.providers.nowpayments.getPayment(payment.providerPaymentId);
  // Re-read after the network call: an IPN may have credited the payment meanwhile (the ledger key would hold anyway).
  const current = await findPayment(db, { id: paymentId, provider: "nowpayments" });
  if (!current || FINAL.has(current.status)) return { settled: true };
  if (!remote || remote.paymentStatus === "waiting") {
    await applyNowStatus(deps, current, "expired");
    return { settled: true };
  }
  await applyNowStatus(deps, current, remote.paymentStatus);
  return { settled: !IN_FLIGHT.includes(remote.paymentStatus) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Shared

async function findPayment(
  db: Db,
  where: { id?: string; providerPaymentId?: string; provider: "squad" | "nowpayments"; ownerId?: string },
): Promise<Payment | null> {
  const conditions = [eq(payments.provider, where.provider)];
  if (where.id !== undefined) conditions.push(eq(payments.id, where.id));
  if (where.providerPaymentId !== undefined) conditions.push(eq(payments.providerPaymentId, where.providerPaymentId));
  if (where.ownerId !== undefined) conditions.push(eq(payments.userId, where.ownerId));
  const [row] = await db.select().from(payments).where(and(...conditions)).limit(1);
  return row ?? null;
}

/**
 * Moves a payment's status forward only (an out-of-order 'confirming' after 'partially_paid' changes nothing) and
 * never off 'credited'. Conditional on the status we read, so two writers cannot both "win". Returns whether it moved.
 */
async function moveStatus(db: Db, payment: Payment, status: string): Promise<boolean> {
  if (payment.status === status || payment.status === "credited") return false;
  if ((STATUS_RANK[status] ?? 0) < (STATUS_RANK[payment.status] ?? 0)) return false;
  const result = await db
    .update(payments)
    .set({ status, updatedAt: Date.now() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, payment.status)));
  return (result.meta?.changes ?? 0) > 0;
}

/**
 * The one place a deposit is credited: [referral reward?, ledger credit, payment -> credited, read balance] in one
 * atomic batch. A replay finds the ledger key taken and changes nothing; only the call that inserted the row notifies.
 */
async function creditPayment(deps: PaymentDeps, payment: Payment, key: string, note: string): Promise<void> {
  const db = getDb(deps.env.DB);
  const now = Date.now();
  const referral = await referralRewardStatement(db, { userId: payment.userId, amountKobo: payment.amountKobo, paymentId: payment.id });
  const credit = ledgerInsert(db, { userId: payment.userId, key, amountKobo: payment.amountKobo, kind: "fund", note, ref: payment.id });
  const markCredited = db
    .update(payments)
    .set({ status: "credited", creditedAt: now, updatedAt: now })
    .where(and(eq(payments.id, payment.id), ne(payments.status, "credited")));
  const balance = db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, payment.userId));
  const results = referral
    ? (await db.batch([referral.statement, credit, markCredited, balance])).slice(1)
    : await db.batch([credit, markCredited, balance]);
  const creditResult = results[0] as { meta?: { changes?: number } };
  const balanceRows = results[2] as { balanceKobo: number }[];
  if ((creditResult.meta?.changes ?? 0) === 0) return;
  log("info", "payment credited", { paymentId: payment.id, provider: payment.provider, amountKobo: payment.amountKobo });
  deps.defer(
    notify(deps.env, payment.userId, {
      kind: "payment.credited",
      paymentId: payment.providerPaymentId ?? payment.id,
      amount: koboToNaira(payment.amountKobo),
      balance: koboToNaira(balanceRows[0]?.balanceKobo ?? 0),
    }),
  );
}

/**
 * Cron backstop: settles invoices whose watcher gave up or never ran, and asks Squad about card payments whose webhook
 * and return page never came (or gives them up after a day). Bounded per run.
 */
export async function sweepPayments(deps: PaymentDeps): Promise<{ invoices: number; cards: number }> {
  const db = getDb(deps.env.DB);
  const now = Date.now();
  // A grace period after expiry lets the invoice watcher's own alarm go first.
  const staleInvoices = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.provider, "nowpayments"),
        // partially_paid is left alone: after expiry NOWPayments does not move it again.
        inArray(payments.status, ["pending", "waiting", "confirming", "confirmed", "sending"]),
        lt(payments.expiresAt, now - 5 * 60_000),
      ),
    )
    .limit(25);
  let invoices = 0;
  for (const row of staleInvoices) {
    try {
      await settleInvoice(deps, row.id);
      invoices += 1;
    } catch (err) {
      log("warn", "invoice sweep failed", { paymentId: row.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const staleCards = await db
    .select({ id: payments.id, createdAt: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.provider, "squad"), eq(payments.status, "pending"), lt(payments.createdAt, now - 30 * 60_000)))
    .orderBy(payments.createdAt)
    .limit(25);
  let cards = 0;
  for (const row of staleCards) {
    try {
      const outcome = await confirmCardPayment(deps, row.id);
      if (outcome === "pending" && row.createdAt < now - 24 * 3600_000) {
        await db.run(sql`UPDATE payments SET status = 'abandoned', updated_at = ${now} WHERE id = ${row.id} AND status = 'pending'`);
      }
      cards += 1;
    } catch (err) {
      log("warn", "card payment sweep failed", { paymentId: row.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { invoices, cards };
}

// ---------------------------------------------------------------------------------------------------------------------
// Currency lists (cached per isolate: they change rarely and every Fund Wallet visit asks)

const CURRENCY_CACHE_MS = 5 * 60_000;
let coinsCache: { at: number; value: string[] } | null = null;
let merchantCache: { at: number; value: { code: string; name: string; available_for_payment: boolean }[] } | null = null;

export async function nowCurrencies(deps: PaymentDeps): Promise<string[]> {
  if (coinsCache && Date.now() - coinsCache.at < CURRENCY_CACHE_MS) return coinsCache.value;
  const value = (await deps.providers.nowpayments.merchantCoins()).map((c) => c.toUpperCase());
  coinsCache = { at: Date.now(), value };
  return value;
}

/** Every currency NOWPayments lists, flagged available_for_payment when it is enabled and selected by the merchant. */
export async function nowMerchantCurrencies(deps: PaymentDeps) {
  if (merchantCache && Date.now() - merchantCache.at < CURRENCY_CACHE_MS) return merchantCache.value;
  const [selected, all] = await Promise.all([nowCurrencies(deps), deps.providers.nowpayments.fullCurrencies()]);
  const chosen = new Set(selected);
  const value = all.map((c) => ({ code: c.code.toUpperCase(), name: c.name, available_for_payment: c.enabled && chosen.has(c.code.toUpperCase()) }));
  merchantCache = { at: Date.now(), value };
  return value;
}

/** The cron's entry point: no request here, so notifications are awaited before the sweep returns. */
export async function runPaymentSweep(env: Env): Promise<void> {
  const pending: Promise<unknown>[] = [];
  const deps: PaymentDeps = {
    env,
    providers: paymentProviders(env, configFor(env), configFor(env).publicUrl),
    defer: (work) => void pending.push(work),
  };
  const result = await sweepPayments(deps);
  await Promise.allSettled(pending);
  if (result.invoices + result.cards > 0) log("info", "payment sweep", result);
}
