import { Wallet } from "lucide-react";
import { naira } from "../../../schema/money";
import { useBalance } from "../../api/wallet";
import { AppLink } from "./app-link";

/**
 * The header's wallet (issue 28): the balance on every signed-in screen, and the way to Fund Wallet in one tap. The
 * figure is the one naira format, kobo included (issue 43: "₦16,445" beside the card's "₦16,445.20" read as two
 * balances); the header makes room for it at 360 px by shortening the tier badge and the theme switch instead.
 */
export function BalanceChip() {
  const balance = useBalance();
  const amount = balance.data;
  const shown = amount === undefined ? "…" : naira(amount);
  return (
    <AppLink
      to="/payment/1"
      data-testid="header-balance"
      aria-label={amount === undefined ? "Fund wallet" : `Balance ${naira(amount)}: fund wallet`}
      title="Fund wallet"
      className="flex items-center gap-1.5 rounded-full border border-slate-200 px-2.5 py-1 text-sm font-semibold tabular-nums text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-400"
    >
      <Wallet className="h-4 w-4 shrink-0" aria-hidden />
      <span>{shown}</span>
    </AppLink>
  );
}
