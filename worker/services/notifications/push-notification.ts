import { formatDateTime } from "../../../schema/datetime";
import { naira } from "../../../schema/money";
import type { PushKind, PushNotificationPayload } from "../../../schema/notifications";
import type { RealtimeMessage } from "../../../schema/realtime";
import { webLink, type WebClient } from "../../lib/public-origin";

/**
 * What a push says (issue 47): the words of each event's notification, built on the server so every device shows the
 * same and the customer's "hide the code on the lock screen" is kept before anything leaves us (a hidden code is not
 * in the encrypted payload at all). The tag names the order, rental or payment, so a second push about it replaces the
 * first on the device; the link opens that order in the web client (WEB_CLIENT_URL, never a request's Host).
 */

export interface PushWords {
  kind: PushKind;
  payload: PushNotificationPayload;
  /** RFC 8030 §5.2: how long a push service keeps it for an offline device (a code is useless after its order). */
  ttlSeconds: number;
}

export interface PushContext {
  webClient: WebClient;
  hideCode: boolean;
  /** The event's time (the outbox row's, from the flow's clock). */
  at: number;
}

const CODE_TTL_S = 30 * 60;
const DAY_S = 24 * 3600;
const REMINDER_TTL_S = 3600;

/** "+2348012345678" as written in the app (the number as the upstream gave it, with one plus). */
const plus = (number: string) => `+${number.replace(/^\+/, "")}`;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A withdrawal's notice title by state (issue 45: on request, paid, failed, reversed), or null for a state the customer
 * is not told about apart ("sending": the screen follows it live). The push and the e-mail say the same.
 */
export function withdrawalWords(message: Extract<RealtimeMessage, { kind: "withdrawal.changed" }>): { title: string } | null {
  switch (message.state) {
    case "held":
      return { title: `Withdrawal of ${naira(message.amount)} on its way` };
    case "approval":
      return { title: `Withdrawal of ${naira(message.amount)} waits for approval` };
    case "paid":
      return { title: `Withdrawal of ${naira(message.amount)} paid` };
    case "failed":
      return { title: `Withdrawal of ${naira(message.amount)} failed` };
    case "refused":
      return { title: `Withdrawal of ${naira(message.amount)} refused` };
    case "reversed":
      return { title: `Withdrawal of ${naira(message.amount)} reversed` };
    case "sending":
      return null;
  }
}

/** The notification an event makes, or null when it makes none (toasts, balance moves, operators' messages). */
export function pushWordsFor(message: RealtimeMessage, ctx: PushContext): PushWords | null {
  const words = (kind: PushKind, tag: string, title: string, body: string, url: string, ttlSeconds: number): PushWords => ({
    kind,
    ttlSeconds,
    payload: { v: 1, kind, title: clip(title, 80), body: clip(body, 180), tag, url, at: new Date(ctx.at).toISOString() },
  });
  const link = (route: string, query?: Record<string, string>) => webLink(ctx.webClient, route, query);
  switch (message.kind) {
    case "sms.code":
      return ctx.hideCode
        ? words("sms.code", `sms:${message.orderId}`, "Your code arrived", `A code came for ${plus(message.number)}. Open the app to see it.`, link("sms/1", { order: message.orderId }), CODE_TTL_S)
        : words("sms.code", `sms:${message.orderId}`, `Code ${message.code}`, `Received on ${plus(message.number)}`, link("sms/1", { order: message.orderId }), CODE_TTL_S);
    case "rental.sms": {
      const url = link("number/1", { rental: message.rentalId });
      if (ctx.hideCode) return words("rental.sms", `rental:${message.rentalId}`, `SMS from ${message.sender}`, "A message came to your rented number. Open the app to read it.", url, DAY_S);
      return words("rental.sms", `rental:${message.rentalId}`, message.code ? `Code ${message.code} from ${message.sender}` : `SMS from ${message.sender}`, message.text, url, DAY_S);
    }
    case "payment.credited":
      return words(
        "payment.credited",
        `payment:${message.paymentId}`,
        `${naira(message.amount)} added to your wallet`,
        message.message ?? `Your balance is ${naira(message.balance)}.`,
        link("payment/1"),
        DAY_S,
      );
    case "sms.ended":
      // Only an order whose money came back is worth a push; a chain's next number is told by its own code.
      if (!message.refunded) return null;
      return words("refund", `sms:${message.orderId}`, "Order refunded", message.message, link("sms/1", { order: message.orderId }), DAY_S);
    case "rental.ended":
      if (!message.refunded) return null;
      return words("refund", `rental:${message.rentalId}`, "Rental refunded", "Your rented number ended and its money is back in your wallet.", link("number/1", { rental: message.rentalId }), DAY_S);
    case "rental.renewing": {
      const when = formatDateTime(message.renewsAt, { now: ctx.at });
      return words(
        "rental.reminder",
        `rental:${message.rentalId}`,
        "Your rental renews soon",
        message.funded ? `It renews ${when} for ${naira(message.price)}.` : `It renews ${when} for ${naira(message.price)}, but your wallet is short. Fund it or the number ends.`,
        link("number/1", { rental: message.rentalId }),
        REMINDER_TTL_S,
      );
    }
    case "rental.ending":
      return words(
        "rental.reminder",
        `rental:${message.rentalId}`,
        "Your rental ends in about an hour",
        `It ends ${formatDateTime(message.endsAt, { now: ctx.at })}. Copy any code you still need, or extend it.`,
        link("number/1", { rental: message.rentalId }),
        REMINDER_TTL_S,
      );
    case "withdrawal.changed": {
      const words_ = withdrawalWords(message);
      return words_ ? words("withdrawal", `withdrawal:${message.withdrawalId}`, words_.title, message.message, link("settings"), DAY_S) : null;
    }
    default:
      return null;
  }
}
