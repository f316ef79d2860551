import { koboToNaira } from "../../../schema/money";
import { log } from "../../lib/log";
import { deliverEvents, ledgerInsert, ledgerRowWritten, outboxInsert, type PaymentDeps } from "../kernel";
import { logReview, openReviewStatement, type OpenReviewInput } from "./payment-reviews";
import { referralRewardStatement } from "../accounts";
import { type Payment } from "./payments";
import { paymentTransition } from "./payment-transitions";

/**
 * The one place a deposit is credited: [referral reward?, ledger credit, payment -> credited, review of an excess?,
 * read balance] in one atomic batch. A replay finds the ledger key taken and changes nothing; only the call that
 * inserted the row notifies. `amountKobo` defaults to the payment's own amount (a card payment verified exact).
 */
export async function creditPayment(
  deps: PaymentDeps,
  payment: Payment,
  key: string,
  note: string,
  opts: { amountKobo?: number; actuallyPaid?: string; review?: OpenReviewInput | null; message?: string } = {},
): Promise<void> {
  const db = deps.db;
  const now = deps.clock.now();
  const amountKobo = opts.amountKobo ?? payment.amountKobo;
  const referral = await referralRewardStatement(db, { userId: payment.userId, amountKobo, paymentId: payment.id });
  const credit = ledgerInsert(db, { userId: payment.userId, key, amountKobo, kind: "fund", note, ref: payment.id });
  const markCredited = paymentTransition(db, "credit", payment.id, now, { creditedAt: now, creditedKobo: amountKobo, actuallyPaid: opts.actuallyPaid ?? payment.actuallyPaid });
  // The customer's payment.credited (screens and webhooks), written only with its ledger row (services/kernel/outbox.ts).
  const event = outboxInsert(
    db,
    {
      userId: payment.userId,
      dedupe: `payment.credited:${key}`,
      message: { kind: "payment.credited", paymentId: payment.providerPaymentId ?? payment.id, amount: koboToNaira(amountKobo), ...(opts.message ? { message: opts.message } : {}) },
      at: now,
    },
    ledgerRowWritten(db, key),
  );
  const head = referral ? [referral.statement] : [];
  const results = opts.review
    ? (await db.batch([...head, credit, markCredited, openReviewStatement(db, opts.review), event] as unknown as Parameters<typeof db.batch>[0])).slice(head.length)
    : (await db.batch([...head, credit, markCredited, event] as unknown as Parameters<typeof db.batch>[0])).slice(head.length);
  const creditResult = results[0] as { meta?: { changes?: number } };
  if ((creditResult.meta?.changes ?? 0) === 0) return;
  if (opts.review && ((results[2] as { meta?: { changes?: number } }).meta?.changes ?? 0) > 0) logReview(opts.review);
  log("info", "payment credited", { paymentId: payment.id, provider: payment.provider, amountKobo, invoiceKobo: payment.amountKobo });
  deps.defer(deliverEvents(deps, payment.userId));
}
