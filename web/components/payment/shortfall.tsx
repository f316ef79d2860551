import { Wallet } from "lucide-react";
import { formatNaira } from "../../../schema/money";
import { ApiError } from "../../api/client";
import { AppLink } from "../layout/app-link";
import { buttonClasses } from "../ui/button";

/**
 * "Not enough money is a step, not a dead end" (issue 28): a purchase the wallet cannot pay says what is missing and
 * offers Fund Wallet already filled with it. The figure is the server's (`shortfall` on its INSUFFICIENT_BALANCE
 * refusal, worker/services/ledger.ts); before asking, the screen's own price and balance give the same figure.
 */

/** Whole naira to top up: the shortfall rounded up (a card payment is in whole naira). */
export function shortfallNaira(price: number, balance: number): number {
  return Math.max(1, Math.ceil(price - balance));
}

/** The shortfall a refusal carries, or null when the error is not "Insufficient balance". */
export function shortfallFrom(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== "INSUFFICIENT_BALANCE") return null;
  const value = Number(err.body.shortfall);
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : null;
}

/** The words of the refusal, for the toast and the notice. */
export const shortfallText = (amount: number) => `Insufficient balance: you need ₦${formatNaira(amount).replace(/\.00$/, "")} more.`;

/** Fund Wallet, its card amount prefilled (web/routes/payment.tsx reads ?amount=). */
export const fundWalletPath = (amount?: number) => (amount ? `/payment/1?amount=${Math.ceil(amount)}` : "/payment/1");

export function ShortfallNotice({ amount }: { amount: number }) {
  return (
    <div role="alert" data-testid="shortfall" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <span>{shortfallText(amount)}</span>
      <AppLink to={fundWalletPath(amount)} className={buttonClasses("default", "sm")}>
        <Wallet className="h-4 w-4" aria-hidden />
        Fund wallet
      </AppLink>
    </div>
  );
}

/** The ?amount= of Fund Wallet's address as a whole naira amount, or undefined when absent or not a positive number. */
export function prefillAmount(value: unknown): number | undefined {
  const n = Math.ceil(Number(value));
  return Number.isFinite(n) && n > 0 && n <= 10_000_000 ? n : undefined;
}
