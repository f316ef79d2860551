import { Copy } from "lucide-react";
import type { SmsStatusResponse } from "../../../schema/sms";
import { useCancelSmsRequest, useSmsOrder } from "../../api/sms";
import { toast } from "../../lib/toast";
import { copyText } from "../../lib/clipboard";
import { formatPhone } from "../../lib/format";
import { Spinner } from "../ui/spinner";
import { EmojiText } from "../ui/emoji-text";
import { SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE } from "../../../schema/constants";
import { smsCode, smsPhase } from "./sms-phase";

/**
 * One of the other numbers of a several-at-once purchase: its own order, its own state from the server. Bought with
 * "try another number", it follows its own chain as the dialog follows the first: when the server names the next
 * order, that order (its number, its code) takes this row's place.
 */
function OtherNumber({ requestId, number }: { requestId: string; number: string }) {
  const order = useSmsOrder(requestId);
  const nextId = order.data?.chain?.next_request_id ?? null;
  if (nextId && nextId !== requestId) return <OtherNumber requestId={nextId} number="" />;
  return <OtherNumberRow order={order.data} number={order.data?.number ?? number} />;
}

function OtherNumberRow({ order, number }: { order: SmsStatusResponse | undefined; number: string }) {
  const phase = smsPhase(order);
  const code = smsCode(order);
  const chain = order?.chain ?? null;
  const cancel = useCancelSmsRequest();
  return (
    <li className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700" data-testid="sms-other-number">
      <span className="flex min-w-0 flex-col">
        {number ? (
          <button type="button" className="flex items-center gap-2 font-mono cursor-pointer" onClick={() => void copyText(number, "Phone number copied to clipboard!")} aria-label={`Phone number: ${formatPhone(number)}. Click to copy`}>
            {formatPhone(number)}
            <Copy className="h-3.5 w-3.5 text-slate-600" aria-hidden />
          </button>
        ) : (
          <span className="text-slate-600 dark:text-slate-400">Trying another number…</span>
        )}
        {chain && chain.max_routes > 1 ? (
          <span className="text-xs text-slate-600 dark:text-slate-400">
            Number {chain.step} of up to {chain.max_routes}
          </span>
        ) : null}
      </span>
      {phase === "received" && code ? (
        <button type="button" className="font-mono font-bold tracking-widest text-emerald-700 dark:text-emerald-400 cursor-pointer" onClick={() => void copyText(code, "SMS code copied to clipboard!")} aria-label={`Code: ${code}. Click to copy`}>
          {code}
        </button>
      ) : phase === "timeout" ? (
        <span className="text-red-700 dark:text-red-400"><EmojiText text={SMS_TIMEOUT_MESSAGE} /> (refunded)</span>
      ) : phase === "error" ? (
        <span className="text-red-700 dark:text-red-400"><EmojiText text={SMS_ERROR_MESSAGE} /> (refunded)</span>
      ) : phase === "cancelled" ? (
        <span className="text-slate-600">Cancelled (refunded)</span>
      ) : (
        <span className="flex items-center gap-2">
          <Spinner className="h-4 w-4 text-blue-600" label="Waiting for the code" />
          {order && order.state === "waiting" && !chain?.moving_on ? (
            // Each entry is its own order: it is cancelled (and refunded) on its own, like the dialog's Cancel Request.
            <button
              type="button"
              className="rounded px-1 text-xs font-medium text-slate-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50 dark:text-slate-300 cursor-pointer"
              disabled={cancel.isPending}
              aria-label={`Cancel ${number ? formatPhone(number) : "this number"}`}
              onClick={() =>
                cancel.mutate(order.request_id, {
                  onSuccess: () => toast.success("cancelled purchase successfully", { id: `sms-cancel:${order.request_id}` }),
                  onError: (err) => toast.error(`Cancel failed: ${err.message}`, { id: `sms-cancel:${order.request_id}` }),
                })
              }
            >
              Cancel
            </button>
          ) : null}
        </span>
      )}
    </li>
  );
}

/**
 * The customer's other numbers beside the one the dialog follows: bought with it, or still waiting from an earlier
 * purchase (issue 28). Each is its own entry and order, with its own code, cancel and refund.
 */
export function OtherNumbers({ others }: { others: { request_id: string; number: string }[] }) {
  if (others.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Your other numbers ({others.length})</span>
      <ul className="flex flex-col gap-2">
        {others.map((o) => (
          <OtherNumber key={o.request_id} requestId={o.request_id} number={o.number} />
        ))}
      </ul>
      <p className="text-xs text-slate-600 dark:text-slate-400">Each number is its own order: one without a code is refunded on its own. They also show in your orders.</p>
    </div>
  );
}
