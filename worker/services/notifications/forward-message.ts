import { formatDateTime } from "../../../schema/datetime";
import type { RealtimeMessage } from "../../../schema/realtime";
import { webLink, type WebClient } from "../../lib/public-origin";

/**
 * Rental forwarding (issue 47): what a rental's event says where the customer chose to read it. The e-mail holds the
 * sender, the full text and the code; the webhook's body is a developer webhook's (the same `type` and `data` names as
 * docs/developer-api.md's rental events, plus the number), signed the same way (Standard Webhooks). Reminders go to
 * the webhook only: the rent room already e-mails every reminder to the account's address.
 */

export interface ForwardContext {
  webClient: WebClient;
  /** The rental's number and country (the event names only the rental). */
  rental: { id: string; number: string | null; countryName: string };
  at: number;
}

export interface ForwardWords {
  email: { subject: string; text: string } | null;
  webhook: { type: string; data: Record<string, unknown> };
}

/** The events forwarding carries: a rental's new SMS and its reminders, renewal and end (each names `rentalId`). */
export function forwardedRentalId(message: RealtimeMessage): string | null {
  return message.kind === "rental.sms" || message.kind === "rental.renewing" || message.kind === "rental.ending" ? message.rentalId : null;
}

export function forwardWordsFor(message: RealtimeMessage, ctx: ForwardContext): ForwardWords | null {
  const number = ctx.rental.number ? `+${ctx.rental.number.replace(/^\+/, "")}` : "your rented number";
  const rentalLink = webLink(ctx.webClient, "number/1", { rental: ctx.rental.id });
  if (message.kind === "rental.sms") {
    return {
      email: {
        subject: message.code ? `Code ${message.code} from ${message.sender} on ${number}` : `SMS from ${message.sender} on ${number}`,
        text: [
          `A message arrived on your rented ${ctx.rental.countryName} number ${number} at ${formatDateTime(ctx.at, { year: "always" })}.`,
          "",
          `From: ${message.sender}`,
          `Code: ${message.code ?? "none found in the text"}`,
          "",
          message.text,
          "",
          "Open the rental:",
          rentalLink,
          "",
          "You get this because forwarding to e-mail is on for this rental (Settings > Notifications, or the rental itself).",
        ].join("\n"),
      },
      webhook: {
        type: "rental.sms",
        data: { rental_id: ctx.rental.id, number: ctx.rental.number, sender: message.sender, text: message.text, code: message.code, received_at: new Date(ctx.at).toISOString(), url: rentalLink },
      },
    };
  }
  if (message.kind === "rental.renewing") {
    return {
      email: null,
      webhook: {
        type: "rental.renewing",
        data: { rental_id: ctx.rental.id, number: ctx.rental.number, renews_at: message.renewsAt, price: message.price, currency: "NGN", funded: message.funded, url: rentalLink },
      },
    };
  }
  if (message.kind === "rental.ending") {
    return {
      email: null,
      webhook: { type: "rental.ending", data: { rental_id: ctx.rental.id, number: ctx.rental.number, ends_at: message.endsAt, url: rentalLink } },
    };
  }
  return null;
}
