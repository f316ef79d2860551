import { useState, type FormEvent } from "react";
import { CreditCard } from "lucide-react";
import { toast } from "../../lib/toast";
import { naira } from "../../../schema/money";
import { useInitializeTransaction } from "../../api/payments";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { addPendingPayment } from "./payment-rules";
import { rememberFundReturn, type FundReturnPath } from "./fund-return";

/** Spec: the browser leaves for the checkout 100 ms after the pending payment is stored. */
export const CHECKOUT_REDIRECT_DELAY_MS = 100;

/** Pay in NGN: an amount (whole naira, at least the operator's minimum) and a Squad checkout. */
export function NgnFundingForm({
  minimum,
  minimumLoading = false,
  initialAmount,
  back,
}: {
  minimum: number;
  minimumLoading?: boolean;
  initialAmount?: number;
  /** The screen whose shortfall brought the customer here: the dashboard returns there once this payment is confirmed. */
  back?: FundReturnPath;
}) {
  // A shortfall brought from a refused purchase (issue 28) starts the form; below the card minimum, the minimum.
  const [amount, setAmount] = useState(initialAmount ? String(Math.max(initialAmount, minimum)) : "");
  const [error, setError] = useState<string | undefined>();
  // A checkout that could not start: said beside the button that retries it (the toast alone is gone in 4 s).
  const [startError, setStartError] = useState<string | null>(null);
  const init = useInitializeTransaction();
  const [redirecting, setRedirecting] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = Number(amount);
    if (!amount.trim() || !Number.isFinite(value) || value <= 0) return setError("Enter an amount");
    if (!Number.isInteger(value)) return setError("Enter a whole naira amount");
    // The spec's text, with the operator's minimum (1000 by default).
    if (value < minimum) return setError(`min amount is ${naira(minimum)}`);
    setStartError(null);
    try {
      const checkout = await init.mutateAsync({ amount: value, currency: "NGN" });
      addPendingPayment({ ref: checkout.transaction_ref, amount: value, currency: "NGN", timestamp: Date.now() });
      if (back) rememberFundReturn(back, checkout.transaction_ref);
      setRedirecting(true);
      setTimeout(() => window.location.assign(checkout.checkout_url), CHECKOUT_REDIRECT_DELAY_MS);
    } catch (err) {
      const message = err instanceof Error ? err.message : "Could not start the payment. Please try again.";
      toast.error(message);
      setStartError(`Could not start the payment: ${message.replace(/[.!]\s*$/, "")}. Nothing was charged: press Pay again to retry.`);
    }
  };

  const busy = init.isPending || redirecting;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field label="Amount (₦)" hint={minimumLoading ? "Checking today's minimum..." : `Min is ${naira(minimum)}`} error={error}>
        {(p) => (
          <Input
            {...p}
            name="amount"
            type="number"
            inputMode="numeric"
            min={minimum}
            step={1}
            placeholder={`${minimum}`}
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              // The minimum message hides again as soon as the amount changes.
              setError(undefined);
            }}
          />
        )}
      </Field>
      {startError ? <Alert variant="error">{startError}</Alert> : null}
      <Button type="submit" size="lg" disabled={busy}>
        <CreditCard className="h-5 w-5" aria-hidden />
        {redirecting ? "Redirecting to checkout..." : init.isPending ? "Starting payment..." : "Pay with card or bank"}
      </Button>
    </form>
  );
}
