import { naira } from "../../../schema/money";
import type { SmsProviderName } from "../../../schema/constants";
import { SMS_PROVIDERS } from "../../../schema/constants";
import { formatRentDuration } from "../../../schema/rentals";
import { webLink } from "../../lib/public-origin";
import type { SignedInUser } from "../accounts";
import { staticAccountView } from "../funding";
import { catalogueFor, RETAIL_BUYER, type Services } from "../kernel";
import { rentalsPage, rentalWithInbox, rentCountries } from "../rent";
import { publicStatus } from "../console";
import { rentalForwardingView, setRentalTelegramForwarding } from "../notifications";
import { canRequestAnotherCode, ownSmsOrder, orderCodes, publicPriceList, smsCountriesOfAll, smsOrdersPage, smsPriceList } from "../sms";
import { type BotMessage, type Button, escapeHtml, codeTag, kobo, when } from "./words";

/**
 * The chat's read screens (issue 48): each is a message and its inline keyboard, read through the rooms' own services
 * (never their tables). Navigation buttons carry only ids the screen validates again; whatever spends money is a
 * confirm step (money-actions.ts) whose button names a server-side row.
 */

export const PAGE = 8;

/** Provider letters in callback data (S, D): the data stays short and names only what we sell. */
export const providerLetter = (p: SmsProviderName) => p[0];
export const providerOfLetter = (letter: string): SmsProviderName | null => SMS_PROVIDERS.find((p) => p[0] === letter) ?? null;

const menuRow: Button[] = [{ text: "« Menu", data: "m" }];

export function mainMenu(user: SignedInUser): BotMessage {
  return {
    text: `Hello ${escapeHtml(user.username)}. Balance: <b>${kobo(user.balanceKobo)}</b>.\nWhat would you like to do?`,
    keyboard: [
      [{ text: "📱 Buy a number", data: "buy" }, { text: "📆 Rent a number", data: "rent" }],
      [{ text: "💳 Top up", data: "top" }, { text: "💰 Balance", data: "bal" }],
      [{ text: "🧾 Orders", data: "o" }, { text: "📇 Rentals", data: "r" }],
      [{ text: "🎁 Referral link", data: "ref" }, { text: "🏷 Prices", data: "pr" }],
      [{ text: "📊 Status", data: "st" }, { text: "Disconnect", data: "unl" }],
    ],
  };
}

export function unlinkedMenu(botName: string): BotMessage {
  return {
    text:
      `This chat is not connected to an account.\n\nTo connect it, sign in on the web app, open <b>Settings → Telegram</b> and press <b>Connect Telegram</b>; ` +
      `the link opens this chat and connects it. Until then you can see our prices and status here.`,
    keyboard: [[{ text: "🏷 Prices", data: "pr" }, { text: "📊 Status", data: "st" }]],
  };
  void botName;
}

export function balanceScreen(user: SignedInUser): BotMessage {
  return {
    text: `💰 Balance: <b>${kobo(user.balanceKobo)}</b>\nDeposited so far: ${kobo(user.totalDepositedKobo)}`,
    keyboard: [[{ text: "💳 Top up", data: "top" }], menuRow],
  };
}

export const TOP_UP_AMOUNTS = [1000, 2000, 5000, 10_000, 20_000];

export async function topUpScreen(services: Services, user: SignedInUser): Promise<BotMessage> {
  const account = await staticAccountView(services.db, user.id);
  const fixed = account
    ? `\n\nYour permanent account: <b>${escapeHtml(account.bank_name)} ${codeTag(account.account_number)}</b> (${escapeHtml(account.account_name)}). Any amount you send there is credited.`
    : "";
  return {
    text: `💳 <b>Top up</b>\nChoose an amount, or send one as a number (for example <code>3500</code>). You then pay by bank transfer or card.${fixed}`,
    keyboard: [
      TOP_UP_AMOUNTS.slice(0, 3).map((n) => ({ text: naira(n), data: `tpa:${n}` })),
      TOP_UP_AMOUNTS.slice(3).map((n) => ({ text: naira(n), data: `tpa:${n}` })),
      menuRow,
    ],
  };
}

function pager(prefix: string, page: number, total: number): Button[] {
  const row: Button[] = [];
  if (page > 0) row.push({ text: "‹ Back", data: `${prefix}${page - 1}` });
  if ((page + 1) * PAGE < total) row.push({ text: "More ›", data: `${prefix}${page + 1}` });
  return row;
}

function grid(buttons: Button[], perRow = 2): Button[][] {
  const rows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += perRow) rows.push(buttons.slice(i, i + perRow));
  return rows;
}

/** Countries for "Buy a number" (buy) or the public prices (prices): both providers' countries, a page at a time. */
export async function countriesScreen(services: Services, userId: string | null, purpose: "buy" | "prices", page: number): Promise<BotMessage> {
  const countries = await smsCountriesOfAll(userId ? catalogueFor(services.sms, userId) : services.sms);
  const shown = countries.slice(page * PAGE, (page + 1) * PAGE);
  const [listPrefix, pagePrefix] = purpose === "buy" ? ["bs", "bcp:"] : ["ps", "prp:"];
  return {
    text: purpose === "buy" ? "📱 <b>Buy a number</b>\nChoose a country:" : "🏷 <b>Prices</b>\nChoose a country:",
    keyboard: [...grid(shown.map((c) => ({ text: c.title, data: `${listPrefix}:${c.id}:0` }))), pager(pagePrefix, page, countries.length), menuRow].filter((r) => r.length > 0),
  };
}

/** The provider that sells in a country (Swift first, then Dynamic), as the web's price list picks it. */
async function sellerOf(services: Services, userId: string | null, countryId: string): Promise<{ provider: SmsProviderName; title: string } | null> {
  const catalogue = userId ? catalogueFor(services.sms, userId) : services.sms;
  const countries = await smsCountriesOfAll(catalogue);
  const country = countries.find((c) => c.id === countryId);
  if (!country) return null;
  for (const provider of SMS_PROVIDERS) {
    const list = await smsPriceList(catalogue, provider, countryId, RETAIL_BUYER).catch(() => null);
    if (list && Object.keys(list).length > 0) return { provider, title: country.title };
  }
  return null;
}

/** A country's services in stock with the customer's own prices (their tier), by name; null: the country is not offered. */
async function pricedServices(services: Services, user: SignedInUser, countryId: string) {
  const seller = await sellerOf(services, user.id, countryId);
  if (!seller) return null;
  const list = Object.values(await smsPriceList(catalogueFor(services.sms, user.id), seller.provider, countryId, user))
    .filter((e) => e.count > 0)
    .sort((a, b) => a.application.localeCompare(b.application, "en", { sensitivity: "base" }));
  return { seller, list };
}

type PricedService = NonNullable<Awaited<ReturnType<typeof pricedServices>>>["list"][number];
const serviceButton = (provider: SmsProviderName, countryId: string, e: PricedService): Button[] => [
  { text: `${e.application} · ${naira(e.price)}`, data: `bq:${providerLetter(provider)}:${countryId}:${e.application_id}` },
];

/** A country's services with the customer's own prices, a page at a time; a name typed next is looked for here. */
export async function servicesScreen(services: Services, user: SignedInUser, countryId: string, page: number): Promise<BotMessage> {
  const priced = await pricedServices(services, user, countryId);
  if (!priced) return { text: "This country is not offered right now.", keyboard: [[{ text: "‹ Countries", data: "buy" }], menuRow] };
  const { seller, list } = priced;
  const shown = list.slice(page * PAGE, (page + 1) * PAGE);
  return {
    text: `📱 <b>${escapeHtml(seller.title)}</b>\nChoose a service (your price)${list.length > PAGE ? ", or type its name to find it" : ""}:`,
    keyboard: [
      ...shown.map((e) => serviceButton(seller.provider, countryId, e)),
      pager(`bs:${countryId}:`, page, list.length),
      [{ text: "‹ Countries", data: "buy" }, ...menuRow],
    ].filter((r) => r.length > 0),
  };
}

/** How many matches a search shows: more asks for more of the name. */
export const SEARCH_SHOWN = 8;
const matches = (name: string, query: string) => name.toLocaleLowerCase("en").includes(query.toLocaleLowerCase("en"));

/**
 * A name typed in the chat (the lists page by 8): the services whose name holds it in the country the chat last
 * listed (its price and buy button, as in the list), and the countries whose name holds it (to list their services).
 */
export async function searchScreen(services: Services, user: SignedInUser, query: string, countryId: string | null): Promise<BotMessage> {
  const priced = countryId ? await pricedServices(services, user, countryId) : null;
  const found = priced ? priced.list.filter((e) => matches(e.application, query)) : [];
  const countries = (await smsCountriesOfAll(catalogueFor(services.sms, user.id))).filter((c) => matches(c.title, query));
  const lines: string[] = [];
  if (priced) lines.push(found.length > 0 ? `📱 <b>${escapeHtml(priced.seller.title)}</b>: services named like “${escapeHtml(query)}”${found.length > SEARCH_SHOWN ? ` (the first ${SEARCH_SHOWN} of ${found.length}: type more of the name)` : ""}:` : `No service named like “${escapeHtml(query)}” in ${escapeHtml(priced.seller.title)}.`);
  if (countries.length > 0) lines.push(`Countries named like “${escapeHtml(query)}”:`);
  if (!priced && countries.length === 0) lines.push(`Nothing named like “${escapeHtml(query)}”. Choose a country under Buy a number, then type a service's name to find it.`);
  return {
    text: lines.join("\n"),
    keyboard: [
      ...(priced ? found.slice(0, SEARCH_SHOWN).map((e) => serviceButton(priced.seller.provider, countryId!, e)) : []),
      ...grid(countries.slice(0, SEARCH_SHOWN).map((c) => ({ text: c.title, data: `bs:${c.id}:0` }))),
      [{ text: "📱 Buy a number", data: "buy" }, ...menuRow],
    ],
  };
}

/** The public price list (starter tier), for anyone, linked or not. */
export async function publicPricesScreen(services: Services, countryId: string, page: number): Promise<BotMessage> {
  const seller = await sellerOf(services, null, countryId);
  if (!seller) return { text: "This country is not offered right now.", keyboard: [[{ text: "‹ Countries", data: "pr" }]] };
  const list = await publicPriceList(services.sms, seller.provider, countryId, services.clock.now());
  const stocked = list.services.filter((s) => s.count > 0);
  const shown = stocked.slice(page * PAGE, (page + 1) * PAGE);
  const lines = shown.map((s) => `• ${escapeHtml(s.name)}: ${naira(s.price)}`).join("\n");
  return {
    text: `🏷 <b>Prices in ${escapeHtml(list.country)}</b> (new customers; higher tiers pay less)\n\n${lines || "Nothing in stock right now."}`,
    keyboard: [pager(`ps:${countryId}:`, page, stocked.length), [{ text: "‹ Countries", data: "pr" }, { text: "« Menu", data: "m" }]].filter((r) => r.length > 0),
  };
}

export async function statusScreen(services: Services): Promise<BotMessage> {
  const status = await publicStatus(services.db, services.clock.now());
  const providers = status.providers
    .map((p) => {
      const rate = p.last_7_days.success_rate;
      return `• ${escapeHtml(p.name)}: ${p.up === false ? "down" : "up"}${rate !== null ? `, ${Math.round(rate * 100)}% of orders got a code (7 days)` : ""}`;
    })
    .join("\n");
  const open = status.incidents.filter((i) => i.resolved_at === null);
  const incidents = open.length > 0 ? `\n\n⚠️ ${open.map((i) => `<b>${escapeHtml(i.title)}</b>: ${escapeHtml(i.body)}`).join("\n")}` : "";
  return { text: `📊 <b>Status</b>\n${providers}\n\n${escapeHtml(status.refunds.promise)}${incidents}`, keyboard: [[{ text: "« Menu", data: "m" }]] };
}

export function referralScreen(services: Services, user: SignedInUser): BotMessage {
  const link = webLink(services.config.webClient, "signup/1", { ref: user.referralCode });
  return { text: `🎁 <b>Your referral link</b>\n${escapeHtml(link)}\n\nShare it: friends who sign up with it are yours.`, keyboard: [menuRow] };
}

const ORDER_WORDS: Record<string, string> = {
  pending: "buying",
  waiting: "waiting for the code",
  used: "code received",
  timeout: "no code: refunded",
  error: "failed: refunded",
  cancelled: "cancelled: refunded",
  failed: "failed: refunded",
};

export async function ordersScreen(services: Services, user: SignedInUser): Promise<BotMessage> {
  const { rows } = await smsOrdersPage(services.db, user.id, { limit: 6 });
  if (rows.length === 0) return { text: "🧾 No orders yet.", keyboard: [[{ text: "📱 Buy a number", data: "buy" }], menuRow] };
  return {
    text: "🧾 <b>Your latest orders</b>",
    keyboard: [...rows.map((o) => [{ text: `${o.serviceName} · ${o.number ?? "…"} · ${ORDER_WORDS[o.status] ?? o.status}`, data: `ov:${o.id}` }]), menuRow],
  };
}

/** One order: its number, its codes and what can be done with it now. */
export async function orderScreen(services: Services, user: SignedInUser, orderId: string): Promise<BotMessage> {
  const order = await ownSmsOrder(services.db, user.id, orderId);
  const codes = await orderCodes(services.db, order.id);
  const all = codes.length > 0 ? codes : order.code ? [order.code] : [];
  const now = services.clock.now();
  const lines = [
    `<b>${escapeHtml(order.serviceName)}</b> · ${escapeHtml(order.countryName)}`,
    `Number: ${order.number ? codeTag(order.number) : "…"}`,
    `Price: ${kobo(order.priceKobo)}`,
    `Status: ${ORDER_WORDS[order.status] ?? order.status}`,
    ...(all.length > 0 ? [`Code${all.length > 1 ? "s" : ""}: ${all.map(codeTag).join(", ")}`] : []),
  ];
  const buttons: Button[][] = [];
  if (order.status === "waiting" || order.status === "pending") buttons.push([{ text: `Cancel and refund ${kobo(order.priceKobo)}`, data: `cx:${order.id}` }, { text: "Refresh", data: `ov:${order.id}` }]);
  if (order.status === "used") {
    const row: Button[] = [];
    if (canRequestAnotherCode(order, now)) row.push({ text: "Another code", data: `ac:${order.id}` });
    row.push({ text: "Use again", data: `ua:${order.id}` });
    buttons.push(row);
  }
  buttons.push([{ text: "‹ Orders", data: "o" }, ...menuRow]);
  return { text: lines.join("\n"), keyboard: buttons };
}

export async function rentalsScreen(services: Services, user: SignedInUser): Promise<BotMessage> {
  const { rows } = await rentalsPage(services.db, user.id, { limit: 6 });
  if (rows.length === 0) return { text: "📇 No rentals yet.", keyboard: [[{ text: "📆 Rent a number", data: "rent" }], menuRow] };
  return {
    text: "📇 <b>Your rentals</b>",
    keyboard: [...rows.map((r) => [{ text: `${r.number ?? "…"} · ${r.countryName} · ${r.status}`, data: `rv:${r.id}` }]), [{ text: "📆 Rent a number", data: "rent" }], menuRow],
  };
}

export async function rentalScreen(services: Services, user: SignedInUser, rentalId: string): Promise<BotMessage> {
  const { rental } = await rentalWithInbox(services.rent, user.id, rentalId);
  const forwarding = await rentalForwardingView(services.db, user.id, rentalId);
  const renew = rental.auto_renew;
  const lines = [
    `<b>${rental.number ? codeTag(rental.number) : "…"}</b> · ${escapeHtml(rental.country)}`,
    `Status: ${rental.status}${rental.expires_at ? `, until ${escapeHtml(when(rental.expires_at))}` : ""}`,
    `Messages: ${rental.sms_count}`,
    `Auto-renew: ${renew ? `on, every ${escapeHtml(renew.duration)} for ${naira(renew.price)}${renew.paused ? ` (paused: ${renew.paused})` : ""}` : "off"}`,
    `New messages and reminders here: ${forwarding.telegram ? "on" : "off"}${forwarding.inherited ? " (your default in Settings)" : ""}`,
  ];
  const buttons: Button[][] = [[{ text: "📥 Inbox", data: `ri:${rental.id}` }]];
  if (rental.status === "active") {
    buttons[0].push({ text: "⏩ Extend", data: `re:${rental.id}` });
    buttons.push([{ text: renew ? "Turn auto-renew off" : "Turn auto-renew on", data: renew ? `rof:${rental.id}` : `ron:${rental.id}` }]);
  }
  // Issue 47's per-rental forwarding, the Telegram part: the same choice as the rental's screen on the web.
  buttons.push([{ text: forwarding.telegram ? "🔕 Stop sending its messages here" : "🔔 Send its messages here", data: `rft:${rental.id}:${forwarding.telegram ? 0 : 1}` }]);
  buttons.push([{ text: "‹ Rentals", data: "r" }, ...menuRow]);
  return { text: lines.join("\n"), keyboard: buttons };
}

/** The switch on a rental's screen: its messages and reminders to this chat or not, then the screen again. */
export async function setRentalChatForwarding(services: Services, user: SignedInUser, rentalId: string, on: boolean): Promise<BotMessage> {
  await setRentalTelegramForwarding(services.db, user.id, rentalId, on, services.clock.now());
  return rentalScreen(services, user, rentalId);
}

export async function inboxScreen(services: Services, user: SignedInUser, rentalId: string): Promise<BotMessage> {
  const { rental, messages } = await rentalWithInbox(services.rent, user.id, rentalId);
  const shown = messages.slice(0, 5);
  const body = shown.length
    ? shown.map((m) => `<b>${escapeHtml(m.sender)}</b> · ${escapeHtml(when(m.received_at))}\n${escapeHtml(m.text)}${m.code ? `\nCode: ${codeTag(m.code)}` : ""}`).join("\n\n")
    : "No messages yet. New ones are posted here as they arrive.";
  return { text: `📥 <b>Inbox of ${escapeHtml(rental.number ?? "your rental")}</b>\n\n${body}`, keyboard: [[{ text: "Refresh", data: `ri:${rentalId}` }, { text: "‹ Rental", data: `rv:${rentalId}` }]] };
}

/** Countries one can rent in, a page at a time. */
export async function rentCountriesScreen(services: Services, user: SignedInUser, page: number): Promise<BotMessage> {
  const countries = await rentCountries(services.rent, user.id);
  const shown = countries.slice(page * PAGE, (page + 1) * PAGE);
  return {
    text: "📆 <b>Rent a number</b>\nChoose a country:",
    keyboard: [...grid(shown.map((c) => ({ text: c.title, data: `rd:${c.id}` }))), pager("rcp:", page, countries.length), menuRow].filter((r) => r.length > 0),
  };
}

/** The lengths offered for a rental in the chat (the web offers every period; these are the common ones). */
export const RENT_CHOICES = [
  { unit: "day", period: 1 },
  { unit: "day", period: 3 },
  { unit: "week", period: 1 },
  { unit: "week", period: 2 },
  { unit: "month", period: 1 },
] as const;

export function rentDurationsScreen(countryId: string): BotMessage {
  return {
    text: "📆 For how long?",
    keyboard: [...grid(RENT_CHOICES.map((c) => ({ text: formatRentDuration(c.unit, c.period), data: `rq:${countryId}:${c.unit}:${c.period}` })), 3), [{ text: "‹ Countries", data: "rent" }, ...menuRow]],
  };
}

