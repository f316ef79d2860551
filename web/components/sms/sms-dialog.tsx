import { useEffect, useState, type ReactNode } from "react";
import { countdownText } from "../../api/sms-hold";
import { Copy } from "lucide-react";
import { copyText } from "../../lib/clipboard";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { EmojiText } from "../ui/emoji-text";
import { naira } from "../../../schema/money";
import { formatPhone } from "../../lib/format";
import { SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE } from "../../../schema/constants";
import type { SmsPhase } from "./sms-phase";
import type { AnotherCodeState } from "./use-active-sms-request";

/** Copies `value`; shows `shown` (a phone number formatted for its country) when given. */
function CopyField({ label, value, shown, message, large }: { label: string; value: string; shown?: string; message: string; large?: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</span>
      <button
        type="button"
        onClick={() => void copyText(value, message)}
        // The name carries the text shown (WCAG 2.5.3: a speech user says what they see), the formatted number.
        aria-label={`${label}: ${shown ?? value}. Click to copy`}
        className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-left font-mono hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:bg-slate-800 dark:hover:bg-slate-700 cursor-pointer"
      >
        <span className={large ? "text-2xl font-bold tracking-widest" : "text-base"}>{shown ?? value}</span>
        <Copy className="h-4 w-4 shrink-0 text-slate-600" aria-hidden />
      </button>
    </div>
  );
}

/**
 * The spec's 'Waiting for SMS' dialog, which becomes 'SMS Received'. Number and code copy on click. Cancel Request only
 * while no code has come; Done once received; a destructive Close on failure. Closing is refused while `cancelling`.
 */
export function SmsDialog({
  open,
  onOpenChange,
  phase,
  number,
  code,
  cancelling,
  onCancelRequest,
  onDismiss,
  another,
  onAnotherCode,
  onStopWaiting,
  extra,
  route,
  refundAt,
  smsText,
  switchedFrom,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  phase: SmsPhase;
  number: string;
  code: string | null;
  cancelling: boolean;
  onCancelRequest: () => void;
  /** Done / Close: the request is finished with. */
  onDismiss: () => void;
  /** Codes received and "Get another code" on the same number (absent: not offered). */
  another?: AnotherCodeState;
  onAnotherCode?: () => void;
  /** Issue 43: stop waiting for another code (the number closes now). */
  onStopWaiting?: () => void;
  /** More below the number (the other numbers of a several-at-once purchase). */
  extra?: ReactNode;
  /** A "try another number" purchase: this number's place among the routes, and whether the next is being bought. */
  route?: { step: number; max: number; switching: boolean } | null;
  /** Issue 28: when the server refunds this number if no code comes (ISO 8601, its own deadline). */
  refundAt?: string | null;
  /** Issue 28: the whole SMS once received; null where the provider sends only the code (the dialog says so). */
  smsText?: string | null;
  /** Issue 28: "try another number" moved to a number in another country. */
  switchedFrom?: { from: string; to: string } | null;
}) {
  const earlier = another && another.codes.length > 1 ? another.codes.slice(0, -1) : [];
  const failed = phase === "timeout" || phase === "error";
  const title = phase === "received" ? "SMS Received" : failed ? "No SMS received" : "Waiting for SMS";
  // Each phase's button is its own element (a key each). One element recoloured from "Cancel Request" to "Done" faded
  // between the two for 150 ms (transition-colors: white text on a still-white fill halfway, which an accessibility
  // scan caught), and kept the focus, so an Enter meant for "Cancel Request" as the code came in pressed "Done".
  const footer =
    phase === "waiting" ? (
      <Button key="cancel" variant="outline" onClick={onCancelRequest} disabled={cancelling}>
        {cancelling ? <Spinner className="h-4 w-4" /> : null}
        Cancel Request
      </Button>
    ) : phase === "received" ? (
      <Button key="done" onClick={onDismiss}>
        Done
      </Button>
    ) : (
      <Button key="close" variant="destructive" onClick={onDismiss}>
        Close
      </Button>
    );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // The spec: the dialog cannot be closed while the cancel flag is set.
        if (!next && cancelling) return;
        if (!next && phase !== "waiting") onDismiss();
        else onOpenChange(next);
      }}
      title={title}
      footer={footer}
      showClose={!cancelling}
    >
      <div className="flex flex-col gap-4" data-testid="sms-dialog">
        {route ? (
          <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="sms-route" role="status">
            {route.switching
              ? "No code on this number (its price is back in your wallet): getting another number..."
              : `Number ${route.step} of up to ${route.max}: if no code comes, another number is tried and you pay only for the one that gets a code.`}
          </p>
        ) : null}
        {switchedFrom && !route?.switching ? (
          <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-200" data-testid="sms-country-changed" role="status">
            This number is from {switchedFrom.to}, not {switchedFrom.from}: no number from {switchedFrom.from} got a code. Enter it with its
            country code where the app asks for your number.
          </p>
        ) : null}
        <CopyField label="Phone number" value={number} shown={formatPhone(number)} message="Phone number copied to clipboard!" />
        {phase === "received" && code ? (
          <>
            <CopyField label={earlier.length ? "Latest code" : "Verification code"} value={code} message="SMS code copied to clipboard!" large />
            <SmsMessage text={smsText ?? null} />
            {earlier.length ? (
              <div className="flex flex-col gap-1" data-testid="sms-earlier-codes">
                <span className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Earlier codes</span>
                <ul className="flex flex-wrap gap-2 font-mono text-sm">
                  {earlier.map((c) => (
                    <li key={c} className="rounded border border-slate-200 px-2 py-1 dark:border-slate-700">{c}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {another?.waiting ? (
              <div className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 px-3 py-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300" data-testid="sms-another-waiting">
                <div className="flex items-center gap-3" role="status">
                  <Spinner className="h-4 w-4 text-blue-600" />
                  Waiting for another code...
                </div>
                {another.until ? <AnotherCodeCountdown at={another.until} /> : null}
                {onStopWaiting ? (
                  <Button variant="outline" size="sm" className="self-start" onClick={onStopWaiting} disabled={another.stopping}>
                    {another.stopping ? <Spinner className="h-4 w-4" /> : null}
                    Stop waiting
                  </Button>
                ) : null}
              </div>
            ) : another?.available && onAnotherCode && another.price !== null ? (
              <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
                <span data-testid="sms-another-code-price">
                  {another.price === 0 ? "Another code on this number is free." : `Another code on this number costs ${naira(another.price)}.`}
                </span>
                <Button variant="outline" size="sm" onClick={onAnotherCode}>
                  Get another code
                </Button>
              </div>
            ) : null}
          </>
        ) : phase === "waiting" ? (
          <div className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 px-3 py-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
            <div className="flex items-center gap-3" role="status">
              <Spinner className="h-5 w-5 text-blue-600" />
              Waiting for SMS...
            </div>
            {refundAt ? <RefundCountdown at={refundAt} /> : null}
          </div>
        ) : failed ? (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200">
            <p className="font-semibold"><EmojiText text={phase === "timeout" ? SMS_TIMEOUT_MESSAGE : SMS_ERROR_MESSAGE} /></p>
            <p className="mt-1">{failureExplanation(phase)}</p>
          </div>
        ) : null}
        {extra}
      </div>
    </Dialog>
  );
}

/**
 * Under the spec's own failure words (kept: they are the contract's texts, decision 045), what happened in plain words.
 * "Error polling SMS" names our machinery; the customer needs to know the number stopped and the money came back.
 */
export function failureExplanation(phase: "timeout" | "error"): string {
  return phase === "timeout"
    ? "No code came in time. The number was released and its price returned to your wallet."
    : "The provider stopped this number before a code came. The number was released and its price returned to your wallet.";
}

/**
 * The whole SMS that brought the code (issue 28), selectable and copyable; where the provider sends only the code, one
 * line says so, so a customer does not wonder what the rest of the message said.
 */
function SmsMessage({ text }: { text: string | null }) {
  if (!text) {
    return (
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="sms-code-only">
        This provider sends only the code, not the whole message.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1" data-testid="sms-full-text">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Message</span>
      {/* pre-line keeps the message's line breaks; pre-wrap is the console's own rule (bench/web-weight.ts consoleLeaks). */}
      <p className="whitespace-pre-line break-words rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">{text}</p>
      <button
        type="button"
        className="self-start rounded text-xs font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400 cursor-pointer"
        onClick={() => void copyText(text, "Message copied to clipboard!")}
      >
        Copy message
      </button>
    </div>
  );
}

/**
 * The time left before the refund, counted down each second to the server's own deadline (re-read with every status
 * answer). The figure itself is not a live region: a screen reader would hear every second.
 */
function RefundCountdown({ at }: { at: string }) {
  const deadline = Date.parse(at);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!Number.isFinite(deadline)) return null;
  const left = deadline - now;
  return (
    <p className="text-xs text-slate-700 dark:text-slate-200" data-testid="sms-refund-countdown">
      {left > 0 ? (
        <>
          If no code comes in <span role="timer" className="font-mono font-semibold tabular-nums">{countdownText(left)}</span>, the number is released and
          its price returned to your wallet.
        </>
      ) : (
        "No code yet: releasing the number and returning its price..."
      )}
    </p>
  );
}

/**
 * Issue 43: how long the number still waits for another code, counted down each second to the server's own closing
 * time (another code is free: nothing is charged or refunded when it does not come).
 */
function AnotherCodeCountdown({ at }: { at: string }) {
  const deadline = Date.parse(at);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!Number.isFinite(deadline)) return null;
  const left = deadline - now;
  return (
    <p className="text-xs text-slate-700 dark:text-slate-200" data-testid="sms-another-countdown">
      {left > 0 ? (
        <>
          The number stays open for <span role="timer" className="font-mono font-semibold tabular-nums">{countdownText(left)}</span> more. Another code is free:
          nothing is charged if none comes.
        </>
      ) : (
        "The number is closing: no other code will come."
      )}
    </p>
  );
}

/** The spec's 'Error Occurred' dialog for a purchase that failed for a reason the customer cannot act on. */
export function ErrorDialog({ detail, onClose }: { detail: string | null; onClose: () => void }) {
  return (
    <Dialog
      open={detail !== null}
      onOpenChange={(next) => !next && onClose()}
      title="Error Occurred"
      footer={<Button variant="destructive" onClick={onClose}>Close</Button>}
    >
      <p className="text-sm">Something went wrong with your request.</p>
      {detail ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{detail}</p> : null}
    </Dialog>
  );
}
