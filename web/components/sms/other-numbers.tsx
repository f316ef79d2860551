import { Copy } from "lucide-react";
import type { SmsStatusResponse } from "../../../schema/sms";
import { useSmsOrder } from "../../api/sms";
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
        <Spinner className="h-4 w-4 text-blue-600" label="Waiting for the code" />
      )}
    </li>
  );
}

/** The other numbers bought together with the one the dialog follows; each is refunded on its own if no code comes. */
export function OtherNumbers({ others }: { others: { request_id: string; number: string }[] }) {
  if (others.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Also bought ({others.length})</span>
      <ul className="flex flex-col gap-2">
        {others.map((o) => (
          <OtherNumber key={o.request_id} requestId={o.request_id} number={o.number} />
        ))}
      </ul>
      <p className="text-xs text-slate-600 dark:text-slate-400">Each number is its own order: one without a code is refunded on its own. They also show in your orders.</p>
    </div>
  );
}
