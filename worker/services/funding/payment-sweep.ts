import { and, eq, inArray, lt } from "drizzle-orm";
import { payments } from "./tables";
import { log } from "../../lib/log";
import { type PaymentDeps, transition } from "../kernel";
import { confirmCardPayment } from "./card-payments";
import { settleInvoice } from "./crypto-payments";
import { payment } from "./payment-transitions";

/**
 * A card payment still pending this long after checkout has been asked about by the sweep (Squad's only webhook is
 * charge_successful; a failed or abandoned checkout is learnt through the verify call,
 * https://docs.squadco.com/Payments/verify-transaction): from then on it is also in the operator's review
 * queue (services/review-queue.ts, docs/decisions/023), until Squad settles it or the sweep gives it up.
 */
export const CARD_PENDING_TOO_LONG_MS = 30 * 60_000;
/** After this the sweep stops asking Squad about a pending card payment and marks it abandoned. */
export const CARD_GIVE_UP_MS = 24 * 3600_000;

/**
 * Cron backstop: settles invoices whose watcher gave up or never ran, and asks Squad about card payments whose webhook
 * and return page never came (or gives them up after a day). Bounded per run.
 */
export async function sweepPayments(deps: PaymentDeps): Promise<{ invoices: number; cards: number }> {
  const db = deps.db;
  const now = deps.clock.now();
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
    .where(and(eq(payments.provider, "squad"), eq(payments.status, "pending"), lt(payments.createdAt, now - CARD_PENDING_TOO_LONG_MS)))
    .orderBy(payments.createdAt)
    .limit(25);
  let cards = 0;
  for (const row of staleCards) {
    try {
      const outcome = await confirmCardPayment(deps, row.id);
      if (outcome === "pending" && row.createdAt < now - CARD_GIVE_UP_MS) {
        await transition(db, payment.abandon, row.id, {}, now);
      }
      cards += 1;
    } catch (err) {
      log("warn", "card payment sweep failed", { paymentId: row.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { invoices, cards };
}

/** The cron's entry point, on the cron's container (worker/scheduled.ts awaits what it defers before the run ends). */
export async function runPaymentSweep(deps: PaymentDeps): Promise<void> {
  const result = await sweepPayments(deps);
  if (result.invoices + result.cards > 0) log("info", "payment sweep", result);
}
