import { useEffect, useEffectEvent, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "../../lib/toast";
import { ApiError } from "../../api/client";
import { confirmCardPayment } from "../../api/payments";
import { refreshWallet } from "../../api/wallet";
import { removePendingPayment } from "./payment-rules";

/** Spec: confirmation at once, then every 3 s, at most 15 attempts. */
export const RETURN_POLL_MS = 3000;
export const RETURN_MAX_ATTEMPTS = 15;

const TOAST_ID = "card-payment-return";

/**
 * The card-payment return (spec section 4): Squad sends the customer back to /dashboard/1?reference=<ref>. The server
 * is asked (it asks Squad itself) until it answers 'success', the payment fails, or 15 attempts pass. `onFinished`
 * clears the reference from the URL. Returns whether verification is still running (the 'Verifying payment...' loader).
 */
export function useCardPaymentReturn(reference: string | undefined, onFinished: () => void): boolean {
  const queryClient = useQueryClient();
  const [verifying, setVerifying] = useState(Boolean(reference));
  // Read at call time, so a caller's new callback identity does not restart verification: only a new reference does.
  const finished = useEffectEvent(onFinished);

  useEffect(() => {
    if (!reference) {
      setVerifying(false);
      return;
    }
    setVerifying(true);
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let requestErrorShown = false;

    const finish = () => {
      if (cancelled) return;
      setVerifying(false);
      finished();
    };

    const attempt = async () => {
      attempts += 1;
      try {
        const verdict = await confirmCardPayment(reference);
        if (cancelled) return;
        if (verdict.data === "success") {
          removePendingPayment(reference);
          toast.success("Payment confirmed successfully!", { id: TOAST_ID });
          await refreshWallet(queryClient);
          return finish();
        }
        if (verdict.data === "failed") {
          // The spec only polls on; a declined card will never turn to success, so say so now instead of 45 s later.
          removePendingPayment(reference);
          toast.error(verdict.message || "Transaction not successful", { id: TOAST_ID });
          return finish();
        }
      } catch (err) {
        if (cancelled) return;
        // Another customer's or an unknown reference: nothing to wait for.
        const unknown = err instanceof ApiError && err.status === 404;
        if (unknown || attempts >= RETURN_MAX_ATTEMPTS) {
          toast.error("Payment verification failed. Please check your transaction history.", { id: TOAST_ID });
          return finish();
        }
        if (!requestErrorShown) {
          requestErrorShown = true;
          toast.error("Failed to confirm payment", { id: TOAST_ID });
        }
      }
      if (attempts >= RETURN_MAX_ATTEMPTS) {
        toast.info("Payment verification timeout. Please check your transaction history.", { id: TOAST_ID });
        return finish();
      }
      timer = setTimeout(() => void attempt(), RETURN_POLL_MS);
    };

    void attempt();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [reference, queryClient]);

  return verifying;
}
