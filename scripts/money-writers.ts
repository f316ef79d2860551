/**
 * A money entity's row is written only by its entity module, which declares the entity's transitions (from -> to, the
 * ledger row, the events) and batches each with its ledger row and its outbox event (docs/decisions/040 and 049).
 * scripts/lint.ts runs this over worker/ and scripts/: an `update(<table>)` (drizzle) or a raw `UPDATE <table>` anywhere
 * but the entity's module is refused. Tests may set rows up by hand (`*.test.ts` and worker/test/setup.ts are not checked).
 */
export const MONEY_ENTITIES = [
  { entity: "an SMS order", table: "smsOrders", sqlName: "sms_orders", module: "worker/services/sms/sms-transitions.ts" },
  { entity: "a payment", table: "payments", sqlName: "payments", module: "worker/services/funding/payment-transitions.ts" },
  { entity: "a rental", table: "rentals", sqlName: "rentals", module: "worker/services/rent/rental-transitions.ts" },
  { entity: "an SMS chain", table: "smsChains", sqlName: "sms_chains", module: "worker/services/sms/sms-chain.ts" },
  { entity: "a payment review", table: "paymentReviews", sqlName: "payment_reviews", module: "worker/services/funding/payment-reviews.ts" },
  // A decision is written once and never changed: nothing updates a resolution row.
  { entity: "a review decision", table: "paymentReviewResolutions", sqlName: "payment_review_resolutions", module: "(none)" },
  { entity: "a review decision", table: "reviewItemResolutions", sqlName: "review_item_resolutions", module: "(none)" },
] as const;

/** The problems of one file: `file:line: message` followed by the line, as lint prints them. */
export function moneyWrites(file: string, text: string): string[] {
  // worker/test/setup.ts is test code too: it closes the orders an earlier test file left open (decision 054).
  if (/\.test\.ts$/.test(file) || file === "worker/test/setup.ts") return [];
  const problems: string[] = [];
  for (const e of MONEY_ENTITIES) {
    if (file === e.module) continue;
    // The drizzle call also when split over lines (`db\n  .update(\n    table)`), and raw SQL in any case.
    const pattern = new RegExp(`\\.update\\(\\s*${e.table}\\s*\\)|\\bUPDATE\\s+\`?${e.sqlName}\\b`, "gi");
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split("\n").length;
      const who = e.module === "(none)" ? "nothing updates" : `only ${e.module.replace("worker/", "")} writes`;
      problems.push(`${file}:${line}: ${who} ${e.entity}'s row (its declared transitions, decision 049)\n    ${text.split("\n")[line - 1]!.trim()}`);
    }
  }
  return problems;
}
