import { Copy, MessageSquare } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { toast } from "../../lib/toast";
import { useCancelRental, useEndRental, useRental } from "../../api/rentals";
import { copyText } from "../../lib/clipboard";
import { formatDateTime, formatPhone } from "../../lib/format";
import { orderStatusLabel, orderStatusVariant } from "../orders/status-style";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Skeleton } from "../ui/skeleton";
import { Spinner } from "../ui/spinner";
import { endConfirmationText } from "./end-confirmation";
import { AutoRenewRental } from "./auto-renew";
import { ExtendRental } from "./extend-rental";
import { formatTimeLeft } from "./time-left";
import { LoadError } from "../ui/load-error";

// Issue 47: a rental's own forwarding, with its API and the step-up dialog: loaded when an inbox opens, not with the page.
const RentalForwarding = lazy(() => import("./rental-forwarding").then((m) => ({ default: m.RentalForwarding })));

const ACTIVE = new Set(["active", "pending"]);

function useNow(intervalMs: number, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, running]);
  return now;
}


/**
 * A rental's inbox: every SMS with sender, text and time (a click copies the code, or the text when there is none),
 * the time left, End rental, and Cancel for a refund while the server says the upstream allows it.
 */
export function RentalInboxDialog({
  rentalId,
  fallbackNumber,
  fallbackCanCancel,
  onClose,
}: {
  rentalId: string | null;
  fallbackNumber?: string;
  fallbackCanCancel?: boolean;
  onClose: () => void;
}) {
  const rental = useRental(rentalId);
  const end = useEndRental();
  const cancel = useCancelRental();
  const detail = rental.data?.rental;
  const status = detail?.status ?? "active";
  const active = ACTIVE.has(status);
  const now = useNow(1000, Boolean(rentalId) && active);
  const number = detail?.number ?? fallbackNumber ?? "";
  const messages = rental.data?.messages ?? [];
  const canCancel = active && (detail?.can_cancel ?? fallbackCanCancel ?? false);
  const busy = end.isPending || cancel.isPending;
  // End rental asks first (one click used to end a paid rental with hours left) and says what comes back.
  const [confirmingEnd, setConfirmingEnd] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  useEffect(() => setConfirmingEnd(false), [rentalId]);
  useEffect(() => {
    if (confirmingEnd) confirmRef.current?.focus();
  }, [confirmingEnd]);
  const confirmation = confirmingEnd && active ? endConfirmationText(detail, now) : null;

  const onEnd = () => {
    if (!rentalId) return;
    end.mutate(rentalId, {
      onSuccess: () => {
        setConfirmingEnd(false);
        toast.success("Rental ended");
      },
      onError: (err) => toast.error(err.message),
    });
  };
  const onCancel = () => {
    if (!rentalId) return;
    cancel.mutate(rentalId, {
      onSuccess: () => toast.success("Rental cancelled and refunded"),
      onError: (err) => toast.error(err.message),
    });
  };

  return (
    <Dialog
      open={rentalId !== null}
      onOpenChange={(next) => !next && !busy && onClose()}
      title={number ? `Inbox for ${formatPhone(number)}` : "Rental inbox"}
      className="max-w-lg"
      footer={
        <>
          {canCancel ? (
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              {cancel.isPending ? <Spinner className="h-4 w-4" /> : null}
              Cancel for a refund
            </Button>
          ) : null}
          {confirmation ? (
            <>
              <Button variant="outline" onClick={() => setConfirmingEnd(false)} disabled={busy}>
                Keep rental
              </Button>
              <Button variant="destructive" onClick={onEnd} disabled={busy}>
                {end.isPending ? <Spinner className="h-4 w-4" /> : null}
                Yes, end rental
              </Button>
            </>
          ) : active ? (
            <Button variant="destructive" onClick={() => setConfirmingEnd(true)} disabled={busy}>
              End rental
            </Button>
          ) : (
            <Button onClick={onClose}>Close</Button>
          )}
        </>
      }
    >
      <div className="flex flex-col gap-4" data-testid="rental-inbox">
        {confirmation ? (
          <div
            ref={confirmRef}
            tabIndex={-1}
            role="alertdialog"
            aria-labelledby="end-rental-title"
            aria-describedby="end-rental-body"
            data-testid="end-rental-confirmation"
            className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 outline-none dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-200"
          >
            <p id="end-rental-title" className="font-semibold">{confirmation.title}</p>
            <p id="end-rental-body" className="mt-1">{confirmation.body}</p>
            {confirmation.cancelHint ? <p className="mt-1">{confirmation.cancelHint}</p> : null}
          </div>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          {number ? (
            <button
              type="button"
              onClick={() => void copyText(number, "Number copied to clipboard!")}
              className="inline-flex items-center gap-2 rounded-md font-mono text-base font-semibold hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-blue-400 cursor-pointer"
              aria-label={`Number ${formatPhone(number)}. Click to copy`}
            >
              {formatPhone(number)}
              <Copy className="h-4 w-4 text-slate-600" aria-hidden />
            </button>
          ) : null}
          <div className="flex items-center gap-2 text-sm">
            <Badge variant={orderStatusVariant(status)}>{orderStatusLabel(status, "rental")}</Badge>
            {active ? (
              <span className="tabular-nums text-slate-600 dark:text-slate-300" data-testid="rental-time-left">
                Time left: {formatTimeLeft(detail?.expires_at, now)}
              </span>
            ) : null}
          </div>
        </div>
        {rentalId && status === "active" && !confirmation ? <ExtendRental rentalId={rentalId} active /> : null}
        {detail && status === "active" && !confirmation ? <AutoRenewRental rental={detail} /> : null}
        {rentalId && status === "active" && !confirmation ? (
          <Suspense fallback={null}>
            <RentalForwarding rentalId={rentalId} />
          </Suspense>
        ) : null}
        {rental.isPending ? (
          <div className="flex flex-col gap-2">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : rental.isError ? (
          <LoadError what="this rental" error={rental.error} onRetry={() => void rental.refetch()} />
        ) : messages.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <MessageSquare className="h-6 w-6" aria-hidden />
            {active ? "No SMS yet. Messages appear here as they arrive." : "No SMS was received."}
          </div>
        ) : (
          <ul className="flex max-h-80 flex-col gap-2 overflow-y-auto" aria-live="polite" data-testid="rental-messages">
            {messages.map((m, i) => (
              <li key={`${m.received_at}-${i}`}>
                <button
                  type="button"
                  onClick={() => void copyText(m.code ?? m.text, m.code ? "Code copied to clipboard!" : "Message copied to clipboard!")}
                  className="w-full rounded-lg border border-slate-200 bg-slate-50 p-3 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:bg-slate-800/60 dark:hover:bg-slate-800 cursor-pointer"
                >
                  <span className="flex items-center justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
                    <span className="font-semibold text-slate-700 dark:text-slate-200">{m.sender}</span>
                    <time dateTime={m.received_at}>{formatDateTime(m.received_at)}</time>
                  </span>
                  <span className="mt-1 block text-sm break-words">{m.text}</span>
                  {m.code ? <span className="mt-1 inline-block font-mono text-base font-bold tracking-widest text-emerald-700 dark:text-emerald-400">{m.code}</span> : null}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
