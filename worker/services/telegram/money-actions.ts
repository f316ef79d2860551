import { z } from "zod";
import { koboToNaira, naira, nairaToKobo } from "../../../schema/money";
import { RENT_UNITS } from "../../../schema/constants";
import { formatRentDuration } from "../../../schema/rentals";
import { AppError } from "../../lib/errors";
import type { SignedInUser } from "../accounts";
import { startCardPayment, startTransfer } from "../funding";
import { catalogueFor, getSetting, pricingContext, type Services, smsPriceKobo } from "../kernel";
import { extendOptions, extendRental, ownedRental, quoteRental, rentNumber, setAutoRenew } from "../rent";
import { buySmsNumber, cancelSmsOrder, findSmsOffer, ownSmsOrder, useAgainQuote, useNumberAgain } from "../sms";
import { type ActionKind, type ActionRow, createAction } from "./actions";
import { providerOfLetter } from "./screens";
import { type BotMessage, type Button, codeTag, escapeHtml, kobo, when } from "./words";

/**
 * Every money action in the chat (issue 48): a confirm step that states the amount and keeps the choice on the server
 * (actions.ts), then the same service the web and the v1 API call, with the stated amount as the shown price, so the
 * customer is never charged more than the confirm said (a higher price answers PRICE_CHANGED and charges nothing).
 */

const payloads = {
  buy: z.object({ provider: z.enum(["Swift", "Dynamic"]), country: z.string(), service: z.string(), label: z.string() }),
  use_again: z.object({ orderId: z.string(), label: z.string() }),
  cancel_order: z.object({ orderId: z.string(), label: z.string() }),
  rent: z.object({ countryId: z.string(), unit: z.enum(RENT_UNITS), period: z.number().int(), label: z.string() }),
  extend: z.object({ rentalId: z.string(), unit: z.enum(RENT_UNITS), period: z.number().int(), label: z.string() }),
  auto_renew: z.object({ rentalId: z.string(), enabled: z.boolean(), unit: z.enum(RENT_UNITS).optional(), period: z.number().int().optional(), label: z.string() }),
  top_up_transfer: z.object({ naira: z.number().positive() }),
  top_up_card: z.object({ naira: z.number().positive() }),
  unlink: z.object({}),
} satisfies Record<ActionKind, z.ZodType>;

type Payload<K extends ActionKind> = z.infer<(typeof payloads)[K]>;

function confirmStep(action: ActionRow, text: string, confirmLabel: string): BotMessage {
  return { text, keyboard: [[{ text: confirmLabel, data: `a:${action.id}` }, { text: "Cancel", data: `x:${action.id}` }]] };
}

async function newAction<K extends ActionKind>(services: Services, chatId: string, user: SignedInUser, kind: K, payload: Payload<K>, amountKobo: number) {
  return createAction(services.db, { chatId, userId: user.id, kind, payload, amountKobo }, services.clock.now());
}

const shortOfFunds = (user: SignedInUser, priceKobo: number) =>
  user.balanceKobo < priceKobo ? `\n\n⚠️ Your balance is ${kobo(user.balanceKobo)}: top up ${kobo(priceKobo - user.balanceKobo)} or more first.` : "";

// ---------------------------------------------------------------------------------------------------------------------
// Confirm steps (each states its amount)

/** Buy: the price is the server's for this customer now (their tier), said before anything is charged. */
export async function confirmBuy(services: Services, chatId: string, user: SignedInUser, providerLetter: string, country: string, service: string): Promise<BotMessage> {
  const provider = providerOfLetter(providerLetter);
  if (!provider) throw new AppError("VALIDATION_FAILED", "That choice is not one we offer. Start again from the menu.");
  const { offer, countryName } = await findSmsOffer(catalogueFor(services.sms, user.id), provider, country, service);
  const priceKobo = smsPriceKobo(offer.costUsd, await pricingContext(services.db, user));
  const label = `${offer.name} number (${countryName})`;
  const action = await newAction(services, chatId, user, "buy", { provider, country, service: offer.serviceId, label }, priceKobo);
  const holdMinutes = (await getSetting(services.db, "sms_poll")).interval_ms * (await getSetting(services.db, "sms_poll")).max_attempts / 60_000;
  return confirmStep(
    action,
    `📱 <b>${escapeHtml(label)}</b>\nPrice: <b>${kobo(priceKobo)}</b>\nIf no code comes within about ${Math.max(1, Math.round(holdMinutes))} minutes, the price comes back to your wallet.${shortOfFunds(user, priceKobo)}`,
    `Buy for ${kobo(priceKobo)}`,
  );
}

export async function confirmUseAgain(services: Services, chatId: string, user: SignedInUser, orderId: string): Promise<BotMessage> {
  const quote = await useAgainQuote(services.sms, user, orderId);
  const priceKobo = nairaToKobo(quote.price);
  const label = `${quote.service} on ${quote.number}`;
  const action = await newAction(services, chatId, user, "use_again", { orderId, label }, priceKobo);
  return confirmStep(action, `🔁 Use <b>${escapeHtml(quote.number)}</b> again for ${escapeHtml(quote.service)}?\nPrice: <b>${kobo(priceKobo)}</b>${shortOfFunds(user, priceKobo)}`, `Use again for ${kobo(priceKobo)}`);
}

export async function confirmCancelOrder(services: Services, chatId: string, user: SignedInUser, orderId: string): Promise<BotMessage> {
  const order = await ownSmsOrder(services.db, user.id, orderId);
  if (order.status !== "waiting" && order.status !== "pending") throw new AppError("INVALID_STATE", "This order can no longer be cancelled.");
  const label = `${order.serviceName} on ${order.number ?? "a number being bought"}`;
  const action = await newAction(services, chatId, user, "cancel_order", { orderId, label }, order.priceKobo);
  return confirmStep(action, `Cancel <b>${escapeHtml(label)}</b>?\n<b>${kobo(order.priceKobo)}</b> goes back to your wallet.`, `Cancel and refund ${kobo(order.priceKobo)}`);
}

export async function confirmRent(services: Services, chatId: string, user: SignedInUser, countryId: string, unitText: string, periodText: string): Promise<BotMessage> {
  const unit = z.enum(RENT_UNITS).safeParse(unitText);
  const period = Number(periodText);
  if (!unit.success || !Number.isInteger(period) || period < 1 || period > 31) throw new AppError("VALIDATION_FAILED", "That rental length is not one we offer.");
  const quote = await quoteRental(services.rent, user, { countryId, unit: unit.data, period });
  if (quote.refused || quote.priceKobo === null) {
    return { text: "No number is available for that country and length right now. Try another length or country.", keyboard: [[{ text: "‹ Lengths", data: `rd:${countryId}` }, { text: "« Menu", data: "m" }]] };
  }
  const label = `a number for ${formatRentDuration(unit.data, period)}`;
  const action = await newAction(services, chatId, user, "rent", { countryId, unit: unit.data, period, label }, quote.priceKobo);
  return confirmStep(action, `📆 Rent <b>${escapeHtml(label)}</b>\nPrice: <b>${kobo(quote.priceKobo)}</b>${shortOfFunds(user, quote.priceKobo)}`, `Rent for ${kobo(quote.priceKobo)}`);
}

/** The extension (or auto-renew) lengths the rental's upstream prices, each its own confirm. */
export async function extendChoices(services: Services, chatId: string, user: SignedInUser, rentalId: string, purpose: "extend" | "auto_renew"): Promise<BotMessage> {
  const options = await extendOptions(services.rent, user, rentalId);
  if (options.length === 0) return { text: "This rental cannot be extended.", keyboard: [[{ text: "‹ Rental", data: `rv:${rentalId}` }]] };
  const rows: Button[][] = [];
  for (const option of options) {
    const priceKobo = nairaToKobo(option.price);
    const action =
      purpose === "extend"
        ? await newAction(services, chatId, user, "extend", { rentalId, unit: option.unit, period: option.period, label: option.duration }, priceKobo)
        : await newAction(services, chatId, user, "auto_renew", { rentalId, enabled: true, unit: option.unit, period: option.period, label: option.duration }, priceKobo);
    rows.push([{ text: purpose === "extend" ? `Extend ${option.duration} · ${naira(option.price)}` : `Every ${option.duration} · ${naira(option.price)} each`, data: `a:${action.id}` }]);
  }
  rows.push([{ text: "‹ Rental", data: `rv:${rentalId}` }]);
  return {
    text: purpose === "extend" ? "⏩ <b>Extend</b>: the price of each length (charged when you press it):" : "🔁 <b>Auto-renew</b>: renew by how much, at what price each time?",
    keyboard: rows,
  };
}

export async function confirmAutoRenewOff(services: Services, chatId: string, user: SignedInUser, rentalId: string): Promise<BotMessage> {
  await ownedRental(services.db, user.id, rentalId);
  const action = await newAction(services, chatId, user, "auto_renew", { rentalId, enabled: false, label: "off" }, 0);
  return confirmStep(action, "Turn auto-renew off for this rental? Nothing is charged.", "Turn it off");
}

/** Top up: the amount, then the way to pay; each way is its own confirm stating the amount. */
export async function confirmTopUp(services: Services, chatId: string, user: SignedInUser, amountNaira: number): Promise<BotMessage> {
  const min = (await getSetting(services.db, "rate_settings")).squadmin;
  if (!Number.isFinite(amountNaira) || amountNaira < min || amountNaira > 5_000_000) {
    return { text: `Send an amount between ${naira(min)} and ${naira(5_000_000)}.`, keyboard: [[{ text: "‹ Top up", data: "top" }]] };
  }
  const amountKobo = nairaToKobo(Math.round(amountNaira * 100) / 100);
  const transfer = await newAction(services, chatId, user, "top_up_transfer", { naira: koboToNaira(amountKobo) }, amountKobo);
  const card = await newAction(services, chatId, user, "top_up_card", { naira: koboToNaira(amountKobo) }, amountKobo);
  return {
    text: `💳 Top up <b>${kobo(amountKobo)}</b>. How will you pay?`,
    keyboard: [
      [{ text: `🏦 Bank transfer of ${kobo(amountKobo)}`, data: `a:${transfer.id}` }],
      [{ text: `💳 Card payment of ${kobo(amountKobo)}`, data: `a:${card.id}` }],
      [{ text: "Cancel", data: `x:${transfer.id}` }],
    ],
  };
}

export async function confirmUnlink(services: Services, chatId: string, user: SignedInUser): Promise<BotMessage> {
  const action = await newAction(services, chatId, user, "unlink", {}, 0);
  return confirmStep(action, "Disconnect this chat from your account? You can connect it again from Settings.", "Disconnect");
}

// ---------------------------------------------------------------------------------------------------------------------
// Running a confirmed action

export type ActionOutcome = { message: BotMessage; unlinked?: boolean };

/** Runs a spent action through its room's service. An AppError is the customer's sentence (the caller shows it). */
export async function runAction(services: Services, user: SignedInUser, action: ActionRow): Promise<ActionOutcome> {
  const shown = koboToNaira(action.amountKobo);
  switch (action.kind) {
    case "buy": {
      const p = payloads.buy.parse(JSON.parse(action.payload));
      const bought = await buySmsNumber(services.sms, user, { provider: p.provider, country: p.country, service: p.service, price: shown });
      return { message: waitingForCode(bought.phone.request_id, bought.phone.number, p.label, bought.price) };
    }
    case "use_again": {
      const p = payloads.use_again.parse(JSON.parse(action.payload));
      const bought = await useNumberAgain(services.sms, user, { request_id: p.orderId, price: shown });
      return { message: waitingForCode(bought.phone.request_id, bought.phone.number, p.label, bought.price) };
    }
    case "cancel_order": {
      const p = payloads.cancel_order.parse(JSON.parse(action.payload));
      await cancelSmsOrder(services.sms, user.id, p.orderId);
      return { message: { text: `↩️ Cancelled. ${kobo(action.amountKobo)} is back in your wallet.`, keyboard: [[{ text: "Orders", data: "o" }, { text: "« Menu", data: "m" }]] } };
    }
    case "rent": {
      const p = payloads.rent.parse(JSON.parse(action.payload));
      const rental = await rentNumber(services.rent, user, { countryId: p.countryId, unit: p.unit, period: p.period, clientPrice: shown });
      return {
        message: {
          text: `📆 Rented ${rental.number ? codeTag(rental.number) : "a number"} for ${kobo(rental.priceKobo)}${rental.expiresAt ? ` until ${escapeHtml(when(rental.expiresAt))}` : ""}. Its messages are posted here as they arrive.`,
          keyboard: [[{ text: "📥 Inbox", data: `ri:${rental.id}` }, { text: "Rental", data: `rv:${rental.id}` }]],
        },
      };
    }
    case "extend": {
      const p = payloads.extend.parse(JSON.parse(action.payload));
      const { rental, charged } = await extendRental(services.rent, user, p.rentalId, { unit: p.unit, period: p.period, clientPrice: shown });
      return { message: { text: `⏩ Extended by ${escapeHtml(p.label)} for ${naira(charged)}${rental.expiresAt ? `, now until ${escapeHtml(when(rental.expiresAt))}` : ""}.`, keyboard: [[{ text: "Rental", data: `rv:${p.rentalId}` }]] } };
    }
    case "auto_renew": {
      const p = payloads.auto_renew.parse(JSON.parse(action.payload));
      await setAutoRenew(services.rent, user, p.rentalId, p.enabled ? { enabled: true, unit: p.unit, period: p.period, price: shown } : { enabled: false });
      return {
        message: {
          text: p.enabled ? `🔁 Auto-renew is on: every ${escapeHtml(p.label)} for ${kobo(action.amountKobo)}, taken from your wallet before the rental ends.` : "Auto-renew is off.",
          keyboard: [[{ text: "Rental", data: `rv:${p.rentalId}` }]],
        },
      };
    }
    case "top_up_transfer": {
      const p = payloads.top_up_transfer.parse(JSON.parse(action.payload));
      const transfer = await startTransfer(services.payments, user, p.naira);
      return {
        message: {
          text:
            `🏦 Transfer exactly <b>${naira(transfer.amount)}</b> to\n${escapeHtml(transfer.bank_name ?? "")} ${codeTag(transfer.account_number ?? "")}\n${escapeHtml(transfer.account_name ?? "")}\n` +
            `before ${escapeHtml(when(transfer.expires_at ?? ""))}. We post here when it arrives.`,
          keyboard: [[{ text: "« Menu", data: "m" }]],
        },
      };
    }
    case "top_up_card": {
      const p = payloads.top_up_card.parse(JSON.parse(action.payload));
      const checkout = await startCardPayment(services.payments, user, p.naira);
      return { message: { text: `💳 Pay <b>${naira(p.naira)}</b> by card on Squad's checkout page. We post here when it is credited.`, keyboard: [[{ text: `Pay ${naira(p.naira)}`, url: checkout.checkout_url }], [{ text: "« Menu", data: "m" }]] } };
    }
    case "unlink":
      return { message: { text: "This chat is disconnected from your account. Connect it again from Settings whenever you like." }, unlinked: true };
  }
}

function waitingForCode(orderId: string, number: string, label: string, priceNaira: number): BotMessage {
  return {
    text: `📱 <b>${escapeHtml(label)}</b>\nNumber: ${codeTag(number)}\nCharged: ${naira(priceNaira)}\n\nWaiting for the code: it is posted here as soon as it arrives.`,
    keyboard: [[{ text: "Cancel and refund", data: `cx:${orderId}` }, { text: "Order", data: `ov:${orderId}` }]],
  };
}
