import { useEffect, useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { toast } from "../../lib/toast";
import { naira } from "../../../schema/money";
import { ApiError } from "../../api/client";
import { useServerPendingPayments, verifyPayment } from "../../api/payments";
import { refreshWallet } from "../../api/wallet";
import { Button } from "../ui/button";
import { Card, CardDescription, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { Spinner } from "../ui/spinner";
import { formatAge, PENDING_MAX_AGE_MS, prunePendingPayments, removePendingPayment, type PendingPayment } from "./payment-rules";
import { PAYMENT_MESSAGES } from "../../../schema/constants";

// The spec treats these two messages as failures whatever else the answer says.
const FAILURE_MESSAGES: string[] = [PAYMENT_MESSAGES.failed, "Payment verification failed"];

/**
 * Card payments begun here that the checkout has not confirmed yet: this browser's stored list (24 h) joined with the
 * server's pending list, each with its age and a Verify Payment button that asks the server (never the client) to check.
 */
export function PendingPaymentsCard() {
  const queryClient = useQueryClient();
  const server = useServerPendingPayments();
  const [local, setLocal] = useState<PendingPayment[]>(() => prunePendingPayments());
  const [now, setNow] = useState(Date.now());
  const [busyRef, setBusyRef] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string[]>([]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const payments = useMemo(() => {
    const byRef = new Map(local.map((p) => [p.ref, p]));
    for (const p of server.data ?? []) {
      const timestamp = Date.parse(p.created_at);
      if (!byRef.has(p.ref) && Number.isFinite(timestamp) && now - timestamp <= PENDING_MAX_AGE_MS)
        byRef.set(p.ref, { ref: p.ref, amount: p.amount, currency: p.currency, timestamp });
    }
    return [...byRef.values()].filter((p) => !dismissed.includes(p.ref)).sort((a, b) => b.timestamp - a.timestamp);
  }, [local, server.data, dismissed, now]);

  const settle = (ref: string) => {
    setLocal(removePendingPayment(ref));
    setDismissed((d) => [...d, ref]);
  };

  const verify = async (ref: string) => {
    setBusyRef(ref);
    try {
      const verdict = await verifyPayment(ref);
      const failed = verdict.data === "failed" || FAILURE_MESSAGES.includes(verdict.message ?? "");
      if (verdict.data !== "success" && !failed) {
        toast.info("Payment is still being processed. Please try again in a few moments.");
        return;
      }
      settle(ref);
      if (failed) toast.error(verdict.message || PAYMENT_MESSAGES.failed);
      else toast.success(verdict.message || PAYMENT_MESSAGES.success);
      await refreshWallet(queryClient);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        // Not a payment of this account (or long gone): stop offering to verify it.
        settle(ref);
        toast.error("Payment verification failed");
      } else {
        toast.error(err instanceof Error ? err.message : "Payment verification failed");
      }
    } finally {
      setBusyRef(null);
    }
  };

  return (
    <Card className="flex flex-col">
      <div className="flex flex-col gap-1 p-5 pb-3">
        <CardTitle>Pending payments</CardTitle>
        <CardDescription>Card payments waiting for confirmation (kept for 24 hours)</CardDescription>
      </div>
      <div className="px-5 pb-5">
        {server.isError ? (
          // This browser's own list still shows; the server's (payments begun on another device) could not be read.
          <LoadError className="mb-3" what="the payments waiting on the server" error={server.error} onRetry={() => void server.refetch()} />
        ) : null}
        {payments.length === 0 && server.isPending ? (
          <p role="status" className="flex items-center justify-center gap-2 py-4 text-sm text-slate-600 dark:text-slate-400">
            <Spinner className="h-4 w-4" /> Loading pending payments...
          </p>
        ) : payments.length === 0 ? (
          <div className="py-4 text-center text-sm text-slate-600 dark:text-slate-400" data-testid="pending-payments-empty">
            <p className="font-medium">No pending payments</p>
            <p className="mt-1 text-xs">A card or bank payment you start here waits in this list until the checkout confirms it.</p>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Pending payments">
            {payments.map((p) => (
              <li key={p.ref} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="flex min-w-0 flex-col">
                  <span className="font-semibold tabular-nums">{naira(p.amount)}</span>
                  <span className="flex items-center gap-1 text-xs text-slate-600 dark:text-slate-400">
                    <Clock className="h-3 w-3" aria-hidden /> {formatAge(p.timestamp, now)}
                  </span>
                  <span className="truncate font-mono text-xs text-slate-600 dark:text-slate-400" title={p.ref}>
                    {p.ref}
                  </span>
                </div>
                <Button size="sm" variant="outline" onClick={() => void verify(p.ref)} disabled={busyRef === p.ref}>
                  {busyRef === p.ref ? "Verifying..." : "Verify Payment"}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
