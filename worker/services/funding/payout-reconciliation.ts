import { koboToNaira } from "../../../schema/money";
import type { PayoutRecord } from "../../providers/payments/squad-payouts";

/**
 * The reconciliation of withdrawals against Squad's transfer list (issue 45, `npm run admin -- reconcile-payouts
 * [--day YYYY-MM-DD]`), pure so the CLI and a test compute the same report. Squad's list (GET /payout/list,
 * https://squadinc.gitbook.io/squad-api-documentation/transfer-api "Get All Transfers") names each transfer by the
 * transaction_reference we sent (`<merchant id>_<withdrawal id>`), so lines match by reference, exactly.
 *
 * Our side: the withdrawals asked for that UTC day that went to Squad. Differences an operator must look at:
 * - we say paid (or reversed) and Squad lists no such transfer, or says otherwise;
 * - we credited the hold back (failed, refused) but Squad paid it: the money went out twice;
 * - the amounts differ;
 * - still in flight with us while Squad has settled it (the sweep's next re-query moves it; listed so nothing hides);
 * - Squad lists a transfer with our withdrawal prefix that we have no withdrawal for at all.
 */

export interface OurPayout {
  id: string;
  reference: string;
  status: string;
  amountKobo: number;
}

export interface PayoutDifference {
  kind: "ours_only" | "squad_only" | "status" | "amount" | "in_flight";
  reference: string;
  ours: string | null;
  squad: string | null;
  amount: number;
  note: string;
}

export interface PayoutReconciliation {
  day: string;
  ours: { count: number; paid: number };
  squad: { count: number; paid: number };
  differences: PayoutDifference[];
  ok: boolean;
}

/** What Squad's status must be for each of ours (null: Squad may not even know it, e.g. refused at the door). */
const EXPECTED: Record<string, PayoutRecord["status"][] | null> = {
  paid: ["success"],
  reversed: ["reversed"],
  failed: null,
  refused: null,
  sending: null,
};

export function comparePayouts(day: string, ours: OurPayout[], squad: PayoutRecord[], known: { referencePrefix: string; isOurs(reference: string): boolean }): PayoutReconciliation {
  const byRef = new Map(squad.map((r) => [r.transactionReference, r]));
  const differences: PayoutDifference[] = [];
  for (const w of ours) {
    const rec = byRef.get(w.reference) ?? null;
    const amount = koboToNaira(w.amountKobo);
    const diff = (kind: PayoutDifference["kind"], note: string) => differences.push({ kind, reference: w.reference, ours: w.status, squad: rec?.status ?? null, amount, note });
    const expected = EXPECTED[w.status];
    if (expected && !rec) diff("ours_only", `we recorded it ${w.status}; Squad lists no transfer with this reference`);
    else if (expected && rec && !expected.includes(rec.status)) diff("status", `we recorded it ${w.status}; Squad says ${rec.status}`);
    else if ((w.status === "failed" || w.status === "refused") && rec?.status === "success") diff("status", "we credited the hold back but Squad paid it: the money went out twice");
    else if (w.status === "sending" && rec && rec.status !== "pending") diff("in_flight", `still sending with us; Squad says ${rec.status} (the sweep's re-query settles it)`);
    if (rec && rec.amountKobo !== null && rec.amountKobo !== w.amountKobo) diff("amount", `we sent ₦${amount}; Squad lists ₦${koboToNaira(rec.amountKobo)}`);
  }
  for (const rec of squad) {
    if (!rec.transactionReference.startsWith(known.referencePrefix) || known.isOurs(rec.transactionReference)) continue;
    differences.push({ kind: "squad_only", reference: rec.transactionReference, ours: null, squad: rec.status, amount: koboToNaira(rec.amountKobo ?? 0), note: "Squad lists a transfer with our withdrawal prefix that no withdrawal of ours has" });
  }
  const paidOurs = ours.filter((w) => w.status === "paid");
  const paidSquad = ours.map((w) => byRef.get(w.reference)).filter((r): r is PayoutRecord => r?.status === "success");
  return {
    day,
    ours: { count: ours.length, paid: koboToNaira(paidOurs.reduce((n, w) => n + w.amountKobo, 0)) },
    squad: { count: ours.filter((w) => byRef.has(w.reference)).length, paid: koboToNaira(paidSquad.reduce((n, r) => n + (r.amountKobo ?? 0), 0)) },
    differences,
    ok: differences.length === 0,
  };
}
