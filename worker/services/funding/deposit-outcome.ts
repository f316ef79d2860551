import { formatNaira, koboToNaira } from "../../../schema/money";
import type { DepositOutcome } from "../../../schema/wallet";

/**
 * What a customer is told about a deposit that did not simply match its invoice (issue 28, "Crypto that is held or
 * refused is visible"): what arrived, what was credited and what happens next, in one sentence the history row, the
 * invoice card, the toast and the e-mail all share. Pure: the facts come from the payments and payment_reviews rows.
 */

export interface PaymentFacts {
  provider: "squad" | "nowpayments" | "squad_transfer";
  status: string;
  amountKobo: number;
  creditedKobo: number | null;
  payAmount: string | null;
  payCurrency: string | null;
  actuallyPaid: string | null;
}

export interface ReviewFacts {
  provider: "squad" | "nowpayments" | "squad_transfer";
  reason:
    | "other_currency"
    | "repeat_payment"
    | "overpaid"
    | "no_amount"
    | "paid_after_settlement"
    | "card_amount_mismatch"
    | "transfer_amount_mismatch"
    | "transfer_late"
    | "transfer_unverified";
  status: "open" | "credited" | "refused";
  expectedAmount: string | null;
  expectedCurrency: string | null;
  payCurrency: string | null;
  actuallyPaid: string | null;
  suggestedKobo: number | null;
  /** The operator's credit, once decided. */
  creditedKobo: number | null;
  /** The operator's words to the customer with the decision (issue 43), if they wrote any. */
  customerMessage?: string | null;
}

export const HELD_NEXT = "Received, being checked by support. You will get an e-mail and a notice here when it is decided.";

const naira = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;

function coins(amount: string | number | null, currency: string | null): string | null {
  if (amount === null || amount === "" || !(Number(amount) > 0)) return null;
  return `${Number(amount)} ${(currency ?? "").toUpperCase()}`.trim();
}

/** A crypto invoice credited below its amount (decision 015: an underpayment is credited at what arrived). */
export function isUnderpaid(p: PaymentFacts): boolean {
  return p.provider === "nowpayments" && p.status === "credited" && p.creditedKobo !== null && p.creditedKobo < p.amountKobo;
}

export function underpaidOutcome(p: PaymentFacts): DepositOutcome {
  const credited = p.creditedKobo ?? 0;
  const arrived = coins(p.actuallyPaid, p.payCurrency);
  const asked = coins(p.payAmount, p.payCurrency);
  return {
    state: "underpaid",
    arrived,
    invoiced: koboToNaira(p.amountKobo),
    credited: koboToNaira(credited),
    message:
      `${arrived ?? "Less than the invoice"}${asked ? ` of ${asked}` : ""} arrived: ${naira(credited)} credited of the ${naira(p.amountKobo)} invoice ` +
      `(${naira(p.amountKobo - credited)} short). Nothing more is owed to you; create a new invoice to add the rest.`,
  };
}

/** The sentence for an arrival an operator holds, refused or credited. */
export function reviewOutcome(r: ReviewFacts, invoiceKobo: number): DepositOutcome {
  // A card or bank transfer review's arrival is naira (what Squad charged or received), written as money, not as a coin.
  const arrived = r.provider !== "nowpayments" ? (Number(r.actuallyPaid) > 0 ? `₦${formatNaira(r.actuallyPaid)}` : null) : coins(r.actuallyPaid, r.payCurrency);
  const asked = coins(r.expectedAmount, r.expectedCurrency);
  const what = arrived ?? "A payment";
  const base = { arrived, invoiced: koboToNaira(invoiceKobo) };
  // The operator's own words, said after ours (ours carry the figures; theirs the why).
  const said = r.customerMessage?.trim() ? ` Support says: "${r.customerMessage.trim()}"` : "";
  if (r.status === "credited") {
    const credited = r.creditedKobo ?? 0;
    return { ...base, state: "support_credited", credited: koboToNaira(credited), message: `Support checked ${arrived ?? "your payment"} and credited ${naira(credited)} to your wallet.${said}` };
  }
  if (r.status === "refused") {
    return {
      ...base,
      state: "refused",
      credited: 0,
      message: `Support checked ${arrived ?? "this payment"} and could not credit it: no money moved.${said || " Contact support (reply to our e-mail) to ask about it."}`,
    };
  }
  if (r.reason.startsWith("transfer_")) {
    // Issue 43: a bank transfer held for a check says first what arrived and that it is being checked.
    const askedNaira = Number(r.expectedAmount) > 0 ? `₦${formatNaira(r.expectedAmount!)}` : null;
    const why: Record<string, string> = {
      transfer_amount_mismatch: `not the exact ${askedNaira ?? "amount"} this account number asked for.`,
      transfer_late: "it came after this account number's time ran out (or after it was already paid).",
      transfer_unverified: "the bank has not confirmed it to us yet.",
    };
    return { ...base, state: "held", credited: 0, message: `${arrived ?? "A transfer"} received, being checked: ${why[r.reason]} Nothing credited yet. You will get an e-mail and a notice here when it is decided.` };
  }
  const held: Record<Exclude<ReviewFacts["reason"], `transfer_${string}`>, string> = {
    other_currency: `${what} arrived, but the invoice asked for ${asked ?? "another coin"}. Nothing credited yet.`,
    overpaid: `${what} arrived for an invoice of ${asked ?? "less"}: the invoice was credited; the extra${r.suggestedKobo ? ` (about ${naira(r.suggestedKobo)})` : ""} is not credited yet.`,
    repeat_payment: `Another ${arrived ?? "payment"} arrived at an earlier invoice's address. Nothing credited yet.`,
    paid_after_settlement: `More arrived after this invoice was credited (${arrived ?? "an amount"} in total). The extra is not credited yet.`,
    no_amount: "A payment arrived without an amount we could read. Nothing credited yet.",
    card_amount_mismatch: "Your card was charged another amount than the checkout. Nothing credited yet.",
  };
  return { ...base, state: r.reason === "overpaid" ? "excess_held" : "held", credited: 0, message: `${held[r.reason as keyof typeof held]} ${HELD_NEXT}` };
}
