import { Wallet } from "lucide-react";
import { naira } from "../../../schema/money";
import { ApiError } from "../../api/client";
import { AppLink } from "../layout/app-link";
import { buttonClasses } from "../ui/button";
import { FUND_RETURN_PATHS, type FundReturnPath } from "./fund-return";

/**
 * "Not enough money is a step, not a dead end" (issue 28): a purchase the wallet cannot pay says what is missing and
 * offers Fund Wallet already filled with it. The figure is the server's (`shortfall` on its INSUFFICIENT_BALANCE
 * refusal, worker/services/ledger.ts); before asking, the screen's own price and balance give the same figure. Issue
 * 43: the figure is exact (₦2,022.40, not ₦2,023); only the card amount it prefills is rounded up to whole naira.
 */

/** What is missing, to the kobo. */
export function shortfallNaira(price: number, balance: number): number {
  return Math.max(0.01, Math.round((price - balance) * 100) / 100);
}

/** The shortfall a refusal carries, or null when the error is not "Insufficient balance". */
export function shortfallFrom(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== "INSUFFICIENT_BALANCE") return null;
  const value = Number(err.body.shortfall);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 100) / 100 : null;
}

/** The words of the refusal, for the toast and the notice. */
export const shortfallText = (amount: number) => `Insufficient balance: you need ${naira(amount)} more.`;

/**
 * Fund Wallet, its card amount prefilled with the shortfall in whole naira (a card payment is whole naira; web/routes/
 * payment.tsx reads ?amount=) and, from a purchase, the screen to come back to once paid (?back=sms).
 */
export const fundWalletPath = (amount?: number, back?: FundReturnPath) => {
  const query = [amount ? `amount=${Math.ceil(amount)}` : "", back ? `back=${back}` : ""].filter(Boolean).join("&");
  return query ? `/payment/1?${query}` : "/payment/1";
};

/**
 * `back`: the screen that refused, to return to after paying (issue 43: Receive SMS with the choice kept); `onFund`
 * runs as the customer leaves for Fund Wallet (the SMS card keeps its choice there).
 */
export function ShortfallNotice({ amount, back, onFund }: { amount: number; back?: FundReturnPath; onFund?: () => void }) {
  return (
    <div role="alert" data-testid="shortfall" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <span>{shortfallText(amount)}</span>
      <AppLink to={fundWalletPath(amount, back)} onClick={onFund} className={buttonClasses("default", "sm")}>
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

/** The ?back= of Fund Wallet's address when it names a screen we return to, else undefined. */
export function backPath(value: unknown): FundReturnPath | undefined {
  return typeof value === "string" && Object.hasOwn(FUND_RETURN_PATHS, value) ? (value as FundReturnPath) : undefined;
}
