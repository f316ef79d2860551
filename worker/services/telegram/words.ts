import { koboToNaira, naira } from "../../../schema/money";
import { formatDateTime } from "../../../schema/datetime";
import type { RealtimeMessage } from "../../../schema/realtime";

/**
 * The bot's words. Every message is sent with parse_mode HTML (https://core.telegram.org/bots/api#html-style), and
 * everything that did not come from us (a name, a service, an SMS's sender and text, a code) goes through `escapeHtml`
 * first: "All <, > and & symbols that are not a part of a tag or an HTML entity must be replaced with the corresponding
 * HTML entities", so a name like "<b>x</b>" or "<a href=...>" is shown as typed and can neither format nor link.
 */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** "₦1,234.56" from kobo. */
export const kobo = (amountKobo: number) => naira(koboToNaira(amountKobo));

/** Lagos time on the one 12-hour clock (schema/datetime.ts). */
export const when = (at: number | string) => formatDateTime(at);

/** A code in <code>: Telegram copies it with one tap. */
export const codeTag = (code: string) => `<code>${escapeHtml(code)}</code>`;

export interface BotMessage {
  text: string;
  keyboard?: Button[][];
}

export type Button = { text: string; data: string } | { text: string; url: string };

/** Telegram's InlineKeyboardMarkup (https://core.telegram.org/bots/api#inlinekeyboardmarkup). */
export function inlineKeyboard(rows: Button[][] | undefined) {
  if (!rows || rows.length === 0) return undefined;
  return { inline_keyboard: rows.map((row) => row.map((b) => ("url" in b ? { text: b.text, url: b.url } : { text: b.text, callback_data: b.data }))) };
}

/**
 * The callback data of a notice's buttons starts with this: pressing one answers with a new message instead of editing
 * the notice, so a code or an SMS is never overwritten by the screen its button opens.
 */
export const NOTICE_PREFIX = "n:";

const onNotice = (message: BotMessage): BotMessage => ({
  ...message,
  keyboard: message.keyboard?.map((row) => row.map((b) => ("data" in b ? { ...b, data: `${NOTICE_PREFIX}${b.data}` } : b))),
});

/**
 * What an outbox event says in a linked chat (null: nothing). Codes and rental messages are the point of the chat; a
 * credit answers a top-up; an order's end says whether the money came back; a withdrawal's end says where the money went.
 */
export function eventWords(message: RealtimeMessage, at: number): BotMessage | null {
  const words = noticeWords(message, at);
  return words ? onNotice(words) : null;
}

function noticeWords(message: RealtimeMessage, at: number): BotMessage | null {
  switch (message.kind) {
    case "sms.code":
      return {
        text: `✅ <b>Your code</b> for ${escapeHtml(message.number)}:\n\n${codeTag(message.code)}\n\n<i>Tap the code to copy it.</i>`,
        keyboard: [[{ text: "Another code", data: `ac:${message.orderId}` }, { text: "Use again", data: `ua:${message.orderId}` }], [{ text: "Orders", data: "o" }, { text: "Menu", data: "m" }]],
      };
    case "sms.ended":
      return {
        text: `${message.refunded ? "↩️" : "⏹"} ${escapeHtml(message.message)}${message.refunded ? "\nThe price is back in your wallet." : ""}`,
        keyboard: [[{ text: "Buy a number", data: "buy" }, { text: "Menu", data: "m" }]],
      };
    case "rental.sms":
      // Only for a rental that forwards to Telegram (delivery.ts asks its forwarding choice: decision 069).
      return {
        text: `📩 <b>New SMS</b> on your rented number\nFrom: ${escapeHtml(message.sender)}\n\n${escapeHtml(message.text)}${message.code ? `\n\nCode: ${codeTag(message.code)}` : ""}`,
        keyboard: [[{ text: "Inbox", data: `ri:${message.rentalId}` }, { text: "Menu", data: "m" }]],
      };
    case "rental.ended":
      return { text: `⏹ A rental ${message.status === "ended" ? "ended" : message.status === "cancelled" ? "was cancelled" : "failed"}${message.refunded ? "; its refund is in your wallet" : ""}.`, keyboard: [[{ text: "Rentals", data: "r" }]] };
    case "rental.renewing":
      return {
        text: `🔁 A rental renews on ${escapeHtml(when(message.renewsAt))} for ${naira(message.price)}${message.funded ? "." : ": your wallet does not hold that now. Top up to keep the number."}`,
        keyboard: [[{ text: "Rental", data: `rv:${message.rentalId}` }, { text: "Top up", data: "top" }]],
      };
    case "rental.ending":
      return {
        text: `⏳ Your rental ends at ${escapeHtml(when(message.endsAt))}. Extend it to keep the number.`,
        keyboard: [[{ text: "Rental", data: `rv:${message.rentalId}` }]],
      };
    case "payment.credited":
      return { text: `💰 ${naira(message.amount)} arrived in your wallet. Balance: <b>${naira(message.balance)}</b>.`, keyboard: [[{ text: "Buy a number", data: "buy" }, { text: "Menu", data: "m" }]] };
    case "withdrawal.changed":
      // Cash out (issue 45): only the end of a withdrawal is news in the chat (the web shows it while in flight); the
      // sentence is the withdrawal's own (stateMessage), escaped like anything with a bank name or an account in it.
      if (message.state === "paid") return { text: `🏦 Your withdrawal of ${naira(message.amount)}: ${escapeHtml(message.message)}.`, keyboard: [[{ text: "Menu", data: "m" }]] };
      if (message.state === "failed" || message.state === "reversed" || message.state === "refused") {
        return { text: `↩️ Your withdrawal of ${naira(message.amount)}: ${escapeHtml(message.message)}.`, keyboard: [[{ text: "Menu", data: "m" }]] };
      }
      return null;
    default:
      void at;
      return null;
  }
}
