import { koboToNaira } from "../../../schema/money";
import type { VirtualAccountTransaction } from "../../providers/payments/squad-virtual-accounts";

/**
 * The daily reconciliation of bank transfers (issue 31), pure so the console (services/bank-transfers.ts) and the
 * operator CLI (`npm run admin -- reconcile-transfers --date YYYY-MM-DD`) compute the same report.
 *
 * Our side: transfers we credited that UTC day (payments squad_transfer, credited). Squad's side: its virtual-account
 * transaction list for the day (credits only). Dynamic pool accounts are reused across payments and Squad's list
 * names its own references, so lines are matched by (account number, amount), each at most once; whatever is left on
 * either side is a difference for an operator to look at.
 */

export interface OurTransferCredit {
  id: string;
  accountNumber: string | null;
  creditedKobo: number;
}

export interface TransferReconciliation {
  date: string;
  ours: { count: number; amount: number };
  squad: { count: number; amount: number };
  differences: { kind: "squad_only" | "ours_only"; account_number: string; amount: number; reference: string; note: string }[];
  ok: boolean;
}

export function isReconciliationDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const at = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 10) === day;
}

export function compareTransfers(day: string, ours: OurTransferCredit[], squadList: VirtualAccountTransaction[]): TransferReconciliation {
  const squad = squadList.filter((t) => t.indicator === "C");
  const unmatched = new Map<string, { reference: string; amountKobo: number; accountNumber: string }[]>();
  for (const t of squad) {
    const k = `${t.accountNumber}:${t.principalKobo}`;
    unmatched.set(k, [...(unmatched.get(k) ?? []), { reference: t.transactionReference, amountKobo: t.principalKobo, accountNumber: t.accountNumber }]);
  }
  const differences: TransferReconciliation["differences"] = [];
  for (const p of ours) {
    const list = unmatched.get(`${p.accountNumber}:${p.creditedKobo}`);
    if (list && list.length > 0) list.shift();
    else differences.push({ kind: "ours_only", account_number: p.accountNumber ?? "", amount: koboToNaira(p.creditedKobo), reference: p.id, note: "credited by us, not in Squad's list for the day" });
  }
  for (const list of unmatched.values()) {
    for (const t of list) {
      differences.push({ kind: "squad_only", account_number: t.accountNumber, amount: koboToNaira(t.amountKobo), reference: t.reference, note: "in Squad's list, not credited by us (in review, unmatched, or missed)" });
    }
  }
  const sum = (xs: number[]) => koboToNaira(xs.reduce((a, b) => a + b, 0));
  return {
    date: day,
    ours: { count: ours.length, amount: sum(ours.map((p) => p.creditedKobo)) },
    squad: { count: squad.length, amount: sum(squad.map((t) => t.principalKobo)) },
    differences,
    ok: differences.length === 0,
  };
}
