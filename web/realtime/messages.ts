import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { PAYMENT_MESSAGES, SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE } from "../../schema/constants";
import type { RealtimeMessage } from "../../schema/realtime";
import * as queryKeys from "../api/keys";
import { PAYMENT_TOAST_ID, toast } from "../lib/toast";

/** A "try another number" purchase moved on to its next route (refunded for the one that gave no code). */
export const NEXT_ROUTE_TOAST = "No code on that number (refunded): trying another number";

export type ToastType = "success" | "info" | "error" | "warning";
/** `id` lets sonner merge this toast with the same one shown by the screen that started the action. */
export interface RealtimeToast {
  type: ToastType;
  message: string;
  id?: string;
}

/** Money moved: the wallet figure and the history (every balance change is a ledger row, so a transaction). */
const MONEY_KEYS: QueryKey[] = [queryKeys.balance, queryKeys.transactions];

/** Exactly the queries a message makes stale (keys from api/keys.ts). Anything else on screen is unaffected. */
export function queryKeysFor(message: RealtimeMessage): QueryKey[] {
  switch (message.kind) {
    case "toast":
      return [];
    case "payment.credited":
      // The deposit also moves the total deposited (the tier badge) and settles a pending payment or invoice.
      return [...MONEY_KEYS, queryKeys.orders, queryKeys.level, queryKeys.pendingPayments, queryKeys.invoice(message.paymentId)];
    case "payment.failed":
      return [queryKeys.transactions, queryKeys.pendingPayments, queryKeys.invoice(message.paymentId)];
    case "sms.code":
      return [queryKeys.smsOrder(message.orderId), queryKeys.orders];
    case "sms.ended":
      return [queryKeys.smsOrder(message.orderId), queryKeys.orders, ...(message.refunded ? MONEY_KEYS : [])];
    case "rental.sms":
      return [queryKeys.rental(message.rentalId), queryKeys.orders];
    case "rental.ended":
      return [queryKeys.rental(message.rentalId), queryKeys.orders, ...(message.refunded ? MONEY_KEYS : [])];
    case "rental.renewing":
      // The inbox's auto-renew line, and the wallet its "short of the next renewal" warning compares with.
      return [queryKeys.rental(message.rentalId), queryKeys.balance];
    case "rental.ending":
      return [queryKeys.rental(message.rentalId)];
    case "balance.changed":
      return MONEY_KEYS;
    case "withdrawal.changed":
      return [...MONEY_KEYS, queryKeys.withdrawable, queryKeys.withdrawal(message.withdrawalId)];
    case "subaccount.changed":
      // The partner dashboard's sub-accounts (status, balance); a transfer also moves the reseller's own wallet.
      return message.change === "transfer" ? [queryKeys.resellerSubaccounts, ...MONEY_KEYS] : [queryKeys.resellerSubaccounts];
    case "admin.changed":
      // Only an operator's room gets these; the console's queries all start with queryKeys.admin.
      return [queryKeys.admin];
  }
}

/**
 * The toast a message calls for, where the spec has one. A code or a rental SMS shows in its own dialog or inbox (the
 * invalidated query brings it), and a cancellation is already acknowledged by the tab that cancelled, so those are silent.
 */
export function toastFor(message: RealtimeMessage): RealtimeToast | null {
  switch (message.kind) {
    case "toast":
      return { type: message.type, message: message.message };
    case "payment.credited":
      // An underpayment or support's credit carries its own sentence (the shortfall, what was credited): issue 28 wants
      // no bare "Payment confirmed successfully!" for a deposit that was not simply the invoice.
      return message.message
        ? { type: "success", message: message.message, id: PAYMENT_TOAST_ID }
        : { type: "success", message: PAYMENT_MESSAGES.success, id: PAYMENT_TOAST_ID };
    case "payment.failed":
      return { type: "error", message: message.message, id: PAYMENT_TOAST_ID };
    case "withdrawal.changed":
      if (message.state === "paid") return { type: "success", message: message.message, id: `withdrawal:${message.withdrawalId}` };
      if (message.state === "failed" || message.state === "reversed" || message.state === "refused") return { type: "error", message: message.message, id: `withdrawal:${message.withdrawalId}` };
      return null;
    case "sms.ended":
      // The chain moved on ("try another number"): not a failure, the dialog follows the next number.
      if (message.nextOrderId) return { type: "info", message: NEXT_ROUTE_TOAST, id: `sms-ended:${message.orderId}` };
      if (message.status === "timeout") return { type: "error", message: SMS_TIMEOUT_MESSAGE, id: `sms-ended:${message.orderId}` };
      if (message.status === "error") return { type: "error", message: SMS_ERROR_MESSAGE, id: `sms-ended:${message.orderId}` };
      if (message.status === "failed") return { type: "error", message: message.message, id: `sms-ended:${message.orderId}` };
      return null;
    case "sms.code":
    case "rental.sms":
    case "rental.ended":
    case "rental.renewing": // its sentence comes as its own toast message (services/rent/renewals.ts)
    case "rental.ending": // likewise (services/rent/rental-reminder.ts)
    case "balance.changed":
    case "subaccount.changed": // the partner dashboard's list shows it; the call that made it answered already
    case "admin.changed":
      return null;
  }
}

/** Every live query, refreshed after the socket was down for a while: messages sent meanwhile were lost. */
export const RESYNC_KEYS: QueryKey[] = [
  queryKeys.balance,
  queryKeys.transactions,
  queryKeys.orders,
  queryKeys.level,
  queryKeys.pendingPayments,
  queryKeys.invoices,
  queryKeys.smsOrders,
  queryKeys.rentals,
];

export function invalidateKeys(queryClient: QueryClient, keys: QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

export function showToast(t: RealtimeToast): void {
  toast[t.type](t.message, t.id ? { id: t.id } : undefined);
}

/**
 * One raw socket frame in, its effects out. A frame that is not a known message (a newer server, garbage) is ignored:
 * the screens still poll the API, so nothing is lost but latency.
 */
export function handleRealtimeFrame(queryClient: QueryClient, data: unknown): RealtimeMessage | null {
  if (typeof data !== "string") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const message = asRealtimeMessage(parsed);
  if (!message) return null;
  invalidateKeys(queryClient, queryKeysFor(message));
  const t = toastFor(message);
  if (t) showToast(t);
  // A code while the tab is hidden: notification, chime, title count. Loaded on the first code only, so it adds
  // nothing to the dashboard's first load (web/lib/code-alerts.ts).
  if (message.kind === "sms.code" || message.kind === "rental.sms") {
    void import("../lib/code-alerts").then((m) => m.alertIfHidden(message));
  }
  return message;
}

// The fields each message kind must carry, by type. The server validates every message against the zod union in
// schema/realtime.ts before publishing; this light check keeps zod (about 25 kB gzip) out of the signed-in shell's
// bundle while still dropping anything malformed.
const REQUIRED: Record<RealtimeMessage["kind"], Record<string, "string" | "number" | "boolean">> = {
  toast: { type: "string", message: "string" },
  "payment.credited": { paymentId: "string", amount: "number", balance: "number" },
  "payment.failed": { paymentId: "string", status: "string", message: "string" },
  "sms.code": { orderId: "string", code: "string", number: "string" },
  "sms.ended": { orderId: "string", status: "string", refunded: "boolean", message: "string" },
  "rental.sms": { rentalId: "string", sender: "string", text: "string" },
  "rental.ended": { rentalId: "string", status: "string", refunded: "boolean" },
  "rental.renewing": { rentalId: "string", renewsAt: "string", price: "number", funded: "boolean" },
  "rental.ending": { rentalId: "string", endsAt: "string" },
  "balance.changed": { balance: "number" },
  "withdrawal.changed": { withdrawalId: "string", state: "string", amount: "number", message: "string" },
  "subaccount.changed": { subaccountId: "string", externalId: "string", change: "string" },
  "admin.changed": { topic: "string" },
};
const TOAST_TYPES = new Set(["success", "info", "error", "warning"]);

export function asRealtimeMessage(value: unknown): RealtimeMessage | null {
  if (!value || typeof value !== "object") return null;
  const record = value as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== "string" || !Object.hasOwn(REQUIRED, kind)) return null;
  for (const [field, type] of Object.entries(REQUIRED[kind as RealtimeMessage["kind"]])) {
    if (typeof record[field] !== type) return null;
  }
  if (kind === "toast" && !TOAST_TYPES.has(record.type as string)) return null;
  if (record.message !== undefined && typeof record.message !== "string") return null;
  return record as RealtimeMessage;
}
