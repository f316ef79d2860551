import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments } from "./tables";
import { configFor } from "../../config";
import { AppError } from "../../lib/errors";
import { getSetting, type PaymentDeps } from "../kernel";

/**
 * Funding the wallet. A payment row records each attempt (Squad checkout or NOWPayments invoice); money moves only
 * through the ledger, in one D1 batch with the payment's status change. The ledger key (fund:squad:<ref>,
 * fund:now:<payment_id>) is UNIQUE and inserted with ON CONFLICT DO NOTHING, so any number of webhooks, callbacks,
 * verify clicks and alarms, in any order and concurrently, credit a payment exactly once.
 * Split by concern as Receive SMS is: card-payments.ts (Squad checkout), crypto-payments.ts (NOWPayments invoices),
 * payment-crediting.ts (the one credit batch), payment-sweep.ts (the cron's backstop), crypto-currencies.ts (the
 * cached currency lists); this file holds what they share about a payment row.
 */

export type Payment = typeof payments.$inferSelect;


/**
 * Where the customer's browser and the provider reach us: the configured PUBLIC_URL, never a request header (a forged
 * Host must not choose where a callback or the IPN points).
 */
export const publicOrigin = (deps: PaymentDeps): string => configFor(deps.env).publicUrl;

export const CARD_DEPOSIT_NOTE = "Wallet deposit (card)";
export const cryptoDepositNote = (payCurrency: string | null) => `Wallet deposit (${(payCurrency ?? "crypto").toUpperCase()})`;

/** Upper bound on one naira deposit (card or bank transfer): far above real use, far below integer trouble. */
const MAX_NAIRA_DEPOSIT = 10_000_000;

/**
 * The bounds every naira deposit shares, card and bank transfer alike (issue 31: "the same minimum as card"): at least
 * the operator's squadmin, at most MAX_NAIRA_DEPOSIT. A 400 naming the field, before anything is written.
 */
export async function checkNairaDepositAmount(db: Db, amountNaira: number): Promise<void> {
  const { squadmin } = await getSetting(db, "rate_settings");
  if (amountNaira < squadmin) throw new AppError("VALIDATION_FAILED", `min amount is ₦${squadmin}`, { field: "amount" });
  if (amountNaira > MAX_NAIRA_DEPOSIT) {
    throw new AppError("VALIDATION_FAILED", `max amount is ₦${MAX_NAIRA_DEPOSIT.toLocaleString("en-NG")}`, { field: "amount" });
  }
}

/**
 * Our payment references: prefix, time, randomness, letters and digits only. Squad documents transaction_ref as
 * alphanumeric (https://docs.squadco.com/Payments/Initiate-payment), so no dashes. References stored before this
 * change (VN-...-...) stay valid: lookups never parse a reference, they only compare it.
 */
export function newReference(prefix: string, now: number): string {
  const random = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}${now.toString(36).toUpperCase()}${[...random].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}


// ---------------------------------------------------------------------------------------------------------------------
// Shared

export async function findPayment(
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
