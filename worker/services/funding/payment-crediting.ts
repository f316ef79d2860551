import { log } from "../../lib/log";
import { deliverEvents, move, type MoneyStep, type Moved, type PaymentDeps, runBatch } from "../kernel";
import { referralRewardStatement } from "../accounts";
import { logReview, openReview, type OpenReviewInput, type PaymentReview, reviewItem } from "./payment-reviews";
import { type DepositCredit, depositKey, type NewPayment, payment, type Payment } from "./payment-transitions";
import { stillVerifying, transferDeposit } from "./transfer-deposit";

/**
 * The one place a deposit is credited (issue 42, docs/decisions/062): card, crypto, bank transfer, an operator's
 * review and support's decision on a stale card all come here, each under its one ledger key `fund:<channel>:<id>`
 * (payment-transitions.ts depositKey). One batch: the move that carries the money (the payment's credit, or the
 * review item's), its ledger row and its payment.credited event, then what moves with it, each written only while the
 * first move's id is on its row (services/kernel/money-entity.ts): the bank transfer's arrival, the payment a review
 * was about, the referral reward of a first deposit, an excess held for review, the operator's decision rows. A
 * replay finds the key taken and changes nothing; only the call whose batch wrote the ledger row delivers the event.
 */
export type DepositSource =
  /** Card (Squad verified the exact amount) or crypto (what arrived, at the invoice's rate): the payment's credit. */
  | { via: "payment"; payment: Payment; actuallyPaid?: string | null; excess?: OpenReviewInput | null }
  /**
   * A bank transfer: the payment's credit while it still waits, and its arrival (`squadRef`) with it; a static account's
   * arrival opens its own payment in the same batch (`arrival`).
   */
  | { via: "transfer"; payment: Pick<Payment, "id" | "userId">; squadRef: string | null; arrival?: NewPayment }
  /**
   * An operator's credit of a review row: the review item's credit; the payment it was about (held whole, or a bank
   * transfer that waits) moves to credited for what was credited, and a bank transfer's arrival with it.
   */
  | { via: "review"; review: PaymentReview; movesPayment: boolean; squadRef: string | null };

export interface Deposited {
  /** This call's batch wrote the ledger row (false: a replay, or another writer credited first). */
  credited: boolean;
  /** The move that carried the money. */
  lead: Moved;
  /** The caller's own steps in the same batch, by name. */
  also: Record<string, unknown>;
}

export async function creditDeposit(
  deps: PaymentDeps,
  source: DepositSource,
  credit: DepositCredit,
  /** The caller's own steps, written in the same batch after the credit (an audit row, the operator's decision). */
  also: Record<string, MoneyStep<unknown>> = {},
  /** Steps that must come first (a decision row whose primary key stops a second decision). */
  before: Record<string, MoneyStep<unknown>> = {},
): Promise<Deposited> {
  const db = deps.db;
  const at = deps.clock.now();
  // A static account's arrival opens its payment only while the arrival still waits to be credited.
  const arrival =
    source.via === "transfer" && source.arrival ? move(db, payment.openArrival, source.arrival.id, { row: source.arrival }, at, { when: source.squadRef ? stillVerifying(source.squadRef) : undefined }) : null;
  const lead =
    source.via === "payment"
      ? move(db, payment.credit, source.payment.id, { credit, actuallyPaid: source.actuallyPaid }, at)
      : source.via === "transfer"
        ? move(db, payment.creditTransfer, source.payment.id, { credit, ...(source.arrival ? { amountKobo: credit.amountKobo } : {}) }, at, {
            when: source.squadRef ? stillVerifying(source.squadRef) : undefined,
          })
        : move(db, reviewItem.credit, source.review.id, credit, at);
  // The id the lead move writes: every step below is guarded on it (a lost race writes none of them).
  const madeIt = lead.madeIt;
  const squadRef = source.via === "transfer" || source.via === "review" ? source.squadRef : null;
  const followers = {
    arrivalCredited:
      squadRef === null
        ? null
        : source.via === "transfer"
          ? move(db, transferDeposit.credit, squadRef, { paymentId: source.payment.id, amountKobo: credit.amountKobo }, at, { when: madeIt })
          : move(db, transferDeposit.creditReviewed, squadRef, { amountKobo: credit.amountKobo }, at, { when: madeIt }),
    paymentCredited: source.via === "review" && source.movesPayment ? move(db, payment.creditReviewed, source.review.paymentId, { amountKobo: credit.amountKobo }, at, { when: madeIt }) : null,
    referral: await referralRewardStatement(db, { userId: credit.userId, amountKobo: credit.amountKobo, paymentId: credit.paymentId, depositKey: depositKey(credit.channel, credit.keyId), at }, madeIt),
    excess: source.via === "payment" && source.excess ? openReview(db, source.excess, at) : null,
  };
  const result = await runBatch(db, { ...before, arrival, lead, ...followers, ...also });
  const { lead: led, excess } = result;
  if (excess?.moved && source.via === "payment" && source.excess) logReview(source.excess);
  const alsoResults = Object.fromEntries(Object.keys(also).map((name) => [name, (result as Record<string, unknown>)[name]]));
  if (!led.ledgerWritten) return { credited: false, lead: led, also: alsoResults };
  log("info", "deposit credited", { paymentId: credit.paymentId, channel: credit.channel, amountKobo: credit.amountKobo });
  deps.defer(deliverEvents(deps, credit.userId));
  return { credited: true, lead: led, also: alsoResults };
}
