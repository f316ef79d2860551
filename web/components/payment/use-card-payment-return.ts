import { useEffect, useEffectEvent, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { PAYMENT_MESSAGES } from "../../../schema/constants";
import { PAYMENT_TOAST_ID, toast } from "../../lib/toast";
import { ApiError } from "../../api/client";
import { confirmCardPayment } from "../../api/payments";
import { refreshWallet } from "../../api/wallet";
import { removePendingPayment } from "./payment-rules";
/** Spec: confirmation at once, then every 3 s, at most 15 attempts. */
export const RETURN_POLL_MS = 3000;
export const RETURN_MAX_ATTEMPTS = 15;


/**
 * The card-payment return (spec section 4): Squad sends the customer back to /dashboard/1?reference=<ref>. The server
 * is asked (it asks Squad itself) until it answers 'success', the payment fails, or 15 attempts pass. `onFinished`
 * clears the reference from the URL. Returns whether verification is still running (the 'Verifying payment...' loader).
 * Issue 43: a payment started from a purchase's shortfall (fund-return.ts) takes the customer back to that screen, its
 * choice kept, once confirmed: `onReturn(path)` navigates there instead of the dashboard's own clean-up. The memory is
 * read through a dynamic import, so the dashboard's first load carries none of it.
 */
export function useCardPaymentReturn(reference: string | undefined, onFinished: () => void, onReturn?: (path: string) => void): boolean {
  const queryClient = useQueryClient();
  const [verifying, setVerifying] = useState(Boolean(reference));
  // Read at call time, so a caller's new callback identity does not restart verification: only a new reference does.
  const finished = useEffectEvent(onFinished);
  const returnTo = useEffectEvent((path: string) => onReturn?.(path));

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
        const outcome = await confirmCardPayment(reference);
        if (cancelled) return;
        if (outcome === "success") {
          removePendingPayment(reference);
          toast.success(PAYMENT_MESSAGES.success, { id: PAYMENT_TOAST_ID });
          await refreshWallet(queryClient);
          // Not loaded (offline for a moment): the dashboard is the way back, as before.
          const back = await import("./fund-return").then((m) => m.takeFundReturn(reference), () => null);
          if (cancelled) return;
          if (back) {
            toast.info(`Back to ${back.label}: your choice is kept.`);
            setVerifying(false);
            return returnTo(back.path);
          }
          return finish();
        }
        if (outcome === "failed") {
          // The spec only polls on; a declined card will never turn to success, so say so now instead of 45 s later.
          removePendingPayment(reference);
          toast.error(PAYMENT_MESSAGES.failed, { id: PAYMENT_TOAST_ID });
          return finish();
        }
      } catch (err) {
        if (cancelled) return;
        // Another customer's or an unknown reference: nothing to wait for.
        const unknown = err instanceof ApiError && err.status === 404;
        if (unknown || attempts >= RETURN_MAX_ATTEMPTS) {
          toast.error("Payment verification failed. Please check your transaction history.", { id: PAYMENT_TOAST_ID });
          return finish();
        }
        if (!requestErrorShown) {
          requestErrorShown = true;
          toast.error("Failed to confirm payment", { id: PAYMENT_TOAST_ID });
        }
      }
      if (attempts >= RETURN_MAX_ATTEMPTS) {
        toast.info("Payment verification timeout. Please check your transaction history.", { id: PAYMENT_TOAST_ID });
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
