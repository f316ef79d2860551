import { z } from "zod";
import { RESEND_BASE_URL } from "./email/resend";
import { createNowPaymentsClient, NOWPAYMENTS_LIVE_BASE_URL } from "./payments/nowpayments";
import { createSquadClient, SQUAD_LIVE_BASE_URL } from "./payments/squad";
import { createSquadVirtualAccountClient } from "./payments/squad-virtual-accounts";
import { createSquadPayoutClient } from "./payments/squad-payouts";
import { SmsActivateRentProvider } from "./rent/sms-activate-rent";
import { SmsManRentProvider } from "./rent/sms-man-rent";
import { RentProviderError } from "./rent/types";
import { SmsActivateProvider } from "./sms/sms-activate";
import { SMS_ACTIVATE_PROFILES, type SmsActivateUpstream } from "./sms/sms-activate-profiles";
import { SmsManProvider } from "./sms/sms-man";
import { isUpstreamCurrency, SmsProviderError, type UpstreamCurrency, type UpstreamMoney } from "./sms/types";
import { createUpstreamClient, UpstreamFault, type FetchLike } from "./upstream-http";

/**
 * `npm run providers:check`: before customers arrive, prove each provider answers our real keys. Only read-only or
 * free calls: a Squad verify of a made-up reference, NOWPayments' status, currency list and minimum, Resend's API-key
 * list, and at each SMS upstream our balance and one price list (sms-man's activation API and its rent API separately:
 * the same token, two services; DaisySMS). Each row says whether the provider was reachable, whether it accepted the key, and what would break if not.
 */

export interface ProviderCheckRow {
  provider: string;
  reachable: boolean;
  /** null when the key was never tried (no key set, or the provider unreachable). */
  authenticated: boolean | null;
  currency: string;
  balance: string;
  /** Empty when everything this provider serves works; otherwise what customers would meet. */
  breaks: string;
  /** An optional upstream without a key: never routed to, so nothing breaks (issue 32's extra upstreams). */
  skipped?: boolean;
}

/** The environment the check reads (process.env in the script, the worker's env in tests). */
export interface ProvidersCheckEnv {
  SQUAD_SECRET_KEY?: string;
  SQUAD_BASE_URL?: string;
  SQUAD_MERCHANT_ID?: string;
  NOWPAYMENTS_API_KEY?: string;
  NOWPAYMENTS_BASE_URL?: string;
  RESEND_API_KEY?: string;
  RESEND_BASE_URL?: string;
  SMSMAN_TOKEN?: string;
  SMSMAN_BASE_URL?: string;
  SMSMAN_CURRENCY?: string;
  SWIFT_API_KEY?: string;
  SWIFT_BASE_URL?: string;
  HEROSMS_API_KEY?: string;
  HEROSMS_BASE_URL?: string;
  GRIZZLY_API_KEY?: string;
  GRIZZLY_BASE_URL?: string;
  GRIZZLY_CURRENCY?: string;
}

/** The upstreams the check reaches, one fetch each (so a test can point each at its own simulator). */
export type CheckedProvider = "squad" | "squad-transfers" | "squad-payouts" | "nowpayments" | "resend" | "sms-man" | "sms-man-rent" | "daisysms" | "herosms" | "herosms-rent" | "grizzly";

// The live hosts, as wrangler.toml's defaults (https://sms-man.com/api, https://sms-man.com/api/rent,
// https://daisysms.com/docs/api).
export const SMSMAN_LIVE_BASE_URL = "https://api.sms-man.com";
export const DAISYSMS_LIVE_BASE_URL = "https://daisysms.com/stubs/handler_api.php";

export interface ProvidersCheckOptions {
  env: ProvidersCheckEnv;
  /** How to reach each provider: the network in the script, the simulators in tests. */
  fetchFor: (provider: CheckedProvider) => FetchLike;
  timeoutMs?: number;
}

export function isGreen(row: ProviderCheckRow): boolean {
  return row.skipped === true || (row.reachable && row.authenticated === true && row.breaks === "");
}

export async function checkProviders(opts: ProvidersCheckOptions): Promise<ProviderCheckRow[]> {
  return Promise.all([checkSquad(opts), checkNowPayments(opts), checkResend(opts), checkSmsMan(opts), checkSmsManRent(opts), checkDaisySms(opts), checkSquadTransfers(opts), checkFamilyUpstream(opts, "herosms"), checkFamilyUpstream(opts, "grizzly"), checkHeroSmsRent(opts), checkSquadPayouts(opts)]);
}

const unreachable = (err: unknown) => err instanceof UpstreamFault && (err.reason === "timeout" || err.reason === "network" || err.reason === "http");
const refusedKey = (err: unknown) => err instanceof UpstreamFault && (err.httpStatus === 401 || err.httpStatus === 403);
const describe = (err: unknown) => (err instanceof UpstreamFault ? `${err.reason}${err.httpStatus ? ` ${err.httpStatus}` : ""}: ${err.detail}` : String(err));

async function checkSquad({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const row: ProviderCheckRow = { provider: "Squad (card)", reachable: false, authenticated: null, currency: "NGN", balance: "n/a", breaks: "" };
  if (!env.SQUAD_SECRET_KEY) return { ...row, breaks: "card funding: SQUAD_SECRET_KEY is not set" };
  const client = createSquadClient({ baseUrl: env.SQUAD_BASE_URL || SQUAD_LIVE_BASE_URL, secretKey: env.SQUAD_SECRET_KEY, fetch: fetchFor("squad"), timeoutMs });
  // A made-up, documented-shape reference: Squad answers 400 "Invalid transaction reference" (adapter: null) when the
  // key is good, 401/403 when it is not. Nothing is created.
  const ref = `CHECK${Date.now().toString(36).toUpperCase()}${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36).toUpperCase()}`;
  try {
    const found = await client.verify(ref);
    return { ...row, reachable: true, authenticated: true, breaks: found ? `card funding: Squad claims to know a made-up reference (${ref})` : "" };
  } catch (err) {
    if (unreachable(err)) return { ...row, breaks: `card funding: Squad is unreachable (${describe(err)})` };
    if (refusedKey(err)) return { ...row, reachable: true, authenticated: false, breaks: "card funding: Squad refuses SQUAD_SECRET_KEY (check live vs sandbox key and SQUAD_BASE_URL)" };
    return { ...row, reachable: true, breaks: `card funding: unexpected verify reply (${describe(err)})` };
  }
}

/**
 * Squad's virtual accounts (bank transfer, issue 31), read only: the dynamic re-query of a made-up reference (Squad
 * answers "no attempt" when the key is good and the merchant is profiled) and the transaction list filtered to a made-up
 * reference (https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2,
 * https://docs.squadco.com/Virtual-accounts/api-specifications). Nothing is created: no account is taken from the pool.
 */
async function checkSquadTransfers({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const row: ProviderCheckRow = { provider: "Squad (bank transfer)", reachable: false, authenticated: null, currency: "NGN", balance: "n/a", breaks: "" };
  if (!env.SQUAD_SECRET_KEY) return { ...row, breaks: "bank transfer funding: SQUAD_SECRET_KEY is not set" };
  const client = createSquadVirtualAccountClient({ baseUrl: env.SQUAD_BASE_URL || SQUAD_LIVE_BASE_URL, secretKey: env.SQUAD_SECRET_KEY, fetch: fetchFor("squad-transfers"), timeoutMs });
  const ref = `CHECK${Date.now().toString(36).toUpperCase()}`;
  try {
    const attempts = await client.requeryDynamic(ref);
    const listed = await client.findTransaction(ref);
    const claims = attempts.length > 0 || listed !== null;
    return { ...row, reachable: true, authenticated: true, breaks: claims ? `bank transfer funding: Squad claims to know a made-up reference (${ref})` : "" };
  } catch (err) {
    if (unreachable(err)) return { ...row, breaks: `bank transfer funding: Squad is unreachable (${describe(err)})` };
    if (refusedKey(err)) return { ...row, reachable: true, authenticated: false, breaks: "bank transfer funding: Squad refuses SQUAD_SECRET_KEY, or the merchant is not profiled for virtual accounts" };
    return { ...row, reachable: true, breaks: `bank transfer funding: unexpected virtual-account reply (${describe(err)})` };
  }
}

/**
 * Squad's Transfer API (cash out, issue 45), read only: SQUAD_MERCHANT_ID must be set and look like Squad's merchant
 * IDs (every transaction_reference must start with it: https://squadinc.gitbook.io/squad-api-documentation/transfer-api
 * "SBABCKDY_12345"), and the re-query of a made-up reference in that format must answer "not found" (a good key; 401/403
 * a refused one). Nothing is sent: no lookup (Squad may charge for it), no transfer.
 */
async function checkSquadPayouts({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const row: ProviderCheckRow = { provider: "Squad (payouts)", reachable: false, authenticated: null, currency: "NGN", balance: "n/a", breaks: "" };
  if (!env.SQUAD_SECRET_KEY) return { ...row, breaks: "cash out: SQUAD_SECRET_KEY is not set" };
  const merchantId = env.SQUAD_MERCHANT_ID ?? "";
  if (!/^[A-Z0-9]{4,20}$/.test(merchantId)) return { ...row, breaks: "cash out: set SQUAD_MERCHANT_ID to your Squad merchant ID (e.g. SBABCKDY): every transfer reference starts with it" };
  const client = createSquadPayoutClient({ baseUrl: env.SQUAD_BASE_URL || SQUAD_LIVE_BASE_URL, secretKey: env.SQUAD_SECRET_KEY, merchantId, fetch: fetchFor("squad-payouts"), timeoutMs });
  const ref = client.reference(`CHECK${Date.now().toString(36).toUpperCase()}`);
  try {
    const found = await client.requery(ref);
    return { ...row, reachable: true, authenticated: true, breaks: found ? `cash out: Squad claims to know a made-up reference (${ref})` : "" };
  } catch (err) {
    if (unreachable(err)) return { ...row, breaks: `cash out: Squad is unreachable (${describe(err)})` };
    if (refusedKey(err)) return { ...row, reachable: true, authenticated: false, breaks: "cash out: Squad refuses SQUAD_SECRET_KEY, or the merchant is not enabled for transfers" };
    return { ...row, reachable: true, breaks: `cash out: unexpected re-query reply (${describe(err)})` };
  }
}

async function checkNowPayments({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const row: ProviderCheckRow = { provider: "NOWPayments (crypto)", reachable: false, authenticated: null, currency: "USD", balance: "n/a", breaks: "" };
  const client = createNowPaymentsClient({ baseUrl: env.NOWPAYMENTS_BASE_URL || NOWPAYMENTS_LIVE_BASE_URL, apiKey: env.NOWPAYMENTS_API_KEY ?? "", fetch: fetchFor("nowpayments"), timeoutMs });
  try {
    const status = await client.status();
    if (!status.ok) return { ...row, reachable: true, breaks: `crypto funding: NOWPayments status says "${status.message}"` };
  } catch (err) {
    return { ...row, breaks: `crypto funding: NOWPayments is unreachable (${describe(err)})` };
  }
  if (!env.NOWPAYMENTS_API_KEY) return { ...row, reachable: true, breaks: "crypto funding: NOWPAYMENTS_API_KEY is not set" };
  try {
    // /merchant/coins and /min-amount need the key (a public list such as /currencies answers any key: proves nothing).
    const coins = await client.merchantCoins();
    if (coins.length === 0) return { ...row, reachable: true, authenticated: true, breaks: "crypto funding: no currency is selected in the NOWPayments dashboard" };
    const min = await client.minAmount(coins[0]!);
    const currency = `USD (${coins.length} coins, e.g. ${coins.slice(0, 3).join(", ")}; ${min.currency} min $${(min.fiatEquivalentUsd ?? 0).toFixed(2)})`;
    return { ...row, reachable: true, authenticated: true, currency, breaks: "" };
  } catch (err) {
    if (refusedKey(err)) return { ...row, reachable: true, authenticated: false, breaks: "crypto funding: NOWPayments refuses NOWPAYMENTS_API_KEY" };
    return { ...row, reachable: !unreachable(err), breaks: `crypto funding: ${describe(err)}` };
  }
}

// GET /api-keys lists keys for a full-access key and answers 401 restricted_api_key for a sending-only key: both prove
// the key is Resend's (https://resend.com/docs/api-reference/api-keys/list-api-keys, /errors). Nothing is sent.
const resendErrorSchema = z.object({ name: z.string(), message: z.string().optional() });

async function checkResend({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const row: ProviderCheckRow = { provider: "Resend (e-mail)", reachable: false, authenticated: null, currency: "n/a", balance: "n/a", breaks: "" };
  if (!env.RESEND_API_KEY) return { ...row, breaks: "sign-up, reset and security e-mails: RESEND_API_KEY is not set" };
  const http = createUpstreamClient({
    provider: "Resend",
    baseUrl: env.RESEND_BASE_URL || RESEND_BASE_URL,
    fetch: fetchFor("resend"),
    timeoutMs,
    headers: { authorization: `Bearer ${env.RESEND_API_KEY}` },
  });
  try {
    const reply = await http.request("/api-keys");
    if (reply.status === 200) return { ...row, reachable: true, authenticated: true, balance: "full-access key (a sending-only key is enough)" };
    let error: z.infer<typeof resendErrorSchema> | null = null;
    try {
      const parsed = resendErrorSchema.safeParse(JSON.parse(reply.text));
      error = parsed.success ? parsed.data : null;
    } catch {
      error = null;
    }
    if (reply.status === 401 && error?.name === "restricted_api_key") return { ...row, reachable: true, authenticated: true, balance: "sending-only key" };
    if (reply.status === 403 && /1010/.test(reply.text)) return { ...row, reachable: true, breaks: "every e-mail: Resend refuses our requests (403 error 1010: User-Agent missing)" };
    if (reply.status === 401 || reply.status === 403) return { ...row, reachable: true, authenticated: false, breaks: `every e-mail: Resend refuses RESEND_API_KEY (${error?.name ?? reply.status})` };
    return { ...row, reachable: reply.status < 500, breaks: `every e-mail: unexpected answer HTTP ${reply.status}` };
  } catch (err) {
    return { ...row, breaks: `every e-mail: Resend is unreachable (${describe(err)})` };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// SMS upstreams: our balance there and one price list, through the product's own adapters (so the check reads the
// replies exactly as a purchase would). Nothing is bought: get-balance, countries and get-prices / limits /
// getBalance and getPrices are reads (https://sms-man.com/api, https://sms-man.com/api/rent, https://daisysms.com/docs/api).

/** The sms-man account currency as the product reads it (worker/providers/sms smsManCurrency: default RUB). */
function smsManAccountCurrency(env: ProvidersCheckEnv): UpstreamCurrency {
  const value = (env.SMSMAN_CURRENCY ?? "").trim().toUpperCase();
  return isUpstreamCurrency(value) ? (value as UpstreamCurrency) : "RUB";
}

const money = (m: UpstreamMoney) => `${m.amount.toFixed(2)} ${m.currency}`;

/** An SMS adapter's fault as a row: unreachable, a refused key, or what else the upstream said. */
function smsRow(row: ProviderCheckRow, err: unknown, serves: string, keyName: string): ProviderCheckRow {
  const kind = err instanceof SmsProviderError ? err.kind : err instanceof RentProviderError ? err.kind : null;
  const detail = err instanceof SmsProviderError ? err.detail : err instanceof Error ? err.message : String(err);
  if (kind === "timeout" || kind === "unavailable") return { ...row, reachable: false, authenticated: null, breaks: `${serves}: unreachable (${kind}: ${detail})` };
  const badKey = kind === "bad_key" || (err instanceof RentProviderError && ["wrong_token", "BAD_KEY", "NO_KEY"].includes(err.upstreamCode ?? ""));
  if (badKey) return { ...row, reachable: true, authenticated: false, breaks: `${serves}: the upstream refuses ${keyName} (${detail})` };
  return { ...row, reachable: true, breaks: `${serves}: unexpected reply (${kind ?? "error"}: ${detail})` };
}

/** A zero balance answers every purchase with NO_MONEY / balance: worth saying before customers meet it. */
function balanceBreaks(balance: UpstreamMoney, serves: string): string {
  return balance.amount > 0 ? "" : `${serves}: our balance there is ${money(balance)} (top it up: every purchase would be refused)`;
}

async function checkSmsMan({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const serves = "Dynamic SMS purchases";
  const row: ProviderCheckRow = { provider: "sms-man (Dynamic SMS)", reachable: false, authenticated: null, currency: smsManAccountCurrency(env), balance: "n/a", breaks: "" };
  if (!env.SMSMAN_TOKEN) return { ...row, breaks: `${serves}: SMSMAN_TOKEN is not set` };
  const sms = new SmsManProvider({
    baseUrl: env.SMSMAN_BASE_URL || SMSMAN_LIVE_BASE_URL,
    key: env.SMSMAN_TOKEN,
    accountCurrency: smsManAccountCurrency(env),
    fetch: fetchFor("sms-man"),
    timeoutMs,
  });
  try {
    const balance = await sms.balance();
    // One price list: the first country sms-man lists (countries and get-prices are both documented reads).
    const [country] = await sms.countries();
    if (!country) return { ...row, reachable: true, authenticated: true, balance: money(balance), breaks: `${serves}: sms-man lists no country` };
    const offers = await sms.services(country.id);
    const priced = offers[0]?.currency ?? balance.currency;
    return {
      ...row,
      reachable: true,
      authenticated: true,
      currency: `${balance.currency} (get-prices ${country.title}: ${offers.length} offers in ${priced})`,
      balance: money(balance),
      breaks: balanceBreaks(balance, serves),
    };
  } catch (err) {
    return smsRow(row, err, serves, "SMSMAN_TOKEN");
  }
}

async function checkSmsManRent({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const serves = "rentals";
  const row: ProviderCheckRow = { provider: "sms-man rent (Rent Number)", reachable: false, authenticated: null, currency: smsManAccountCurrency(env), balance: "n/a", breaks: "" };
  if (!env.SMSMAN_TOKEN) return { ...row, breaks: `${serves}: SMSMAN_TOKEN is not set` };
  const rent = new SmsManRentProvider({
    baseUrl: env.SMSMAN_BASE_URL || SMSMAN_LIVE_BASE_URL,
    token: env.SMSMAN_TOKEN,
    accountCurrency: smsManAccountCurrency(env),
    fetch: async (request) => fetchFor("sms-man-rent")(request),
    timeoutMs,
  });
  try {
    const balance = await rent.balance();
    // One price list: the rent API's limits for one day in its documented sample country (1); a read, nothing rented.
    const limits = await rent.limits({ countryId: "1", unit: "day", period: 1 });
    const sample = limits[0];
    return {
      ...row,
      reachable: true,
      authenticated: true,
      currency: `${balance.currency} (limits: ${limits.length} countries${sample ? `, 1 day from ${sample.cost.toFixed(2)} ${sample.currency}` : ""})`,
      balance: money(balance),
      breaks: balanceBreaks(balance, serves),
    };
  } catch (err) {
    return smsRow(row, err, serves, "SMSMAN_TOKEN");
  }
}

async function checkDaisySms({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const serves = "Swift SMS purchases";
  const row: ProviderCheckRow = { provider: "DaisySMS (Swift SMS)", reachable: false, authenticated: null, currency: "USD", balance: "n/a", breaks: "" };
  if (!env.SWIFT_API_KEY) return { ...row, breaks: `${serves}: SWIFT_API_KEY is not set` };
  const sms = new SmsActivateProvider({ baseUrl: env.SWIFT_BASE_URL || DAISYSMS_LIVE_BASE_URL, key: env.SWIFT_API_KEY, fetch: fetchFor("daisysms"), timeoutMs });
  try {
    // getBalance answers in dollars; getPrices for USA (the adapter's only country) is the one price list.
    const balance = await sms.balance();
    const [usa] = await sms.countries();
    const offers = usa ? await sms.services(usa.id) : [];
    return {
      ...row,
      reachable: true,
      authenticated: true,
      currency: `USD (getPrices USA: ${offers.length} offers)`,
      balance: money(balance),
      breaks: balanceBreaks(balance, serves) || (offers.length === 0 ? `${serves}: getPrices lists no service for USA` : ""),
    };
  } catch (err) {
    return smsRow(row, err, serves, "SWIFT_API_KEY");
  }
}

/**
 * HeroSMS and Grizzly SMS (issue 32), through the same SMS-Activate-family adapter as DaisySMS: per account (the key
 * variable may list several, comma-separated) our balance in the upstream's currency and one price list (getPrices
 * for USA, SMS-Activate's 187). An upstream without a key is listed as not configured: it is never routed to.
 */
async function checkFamilyUpstream({ env, fetchFor, timeoutMs }: ProvidersCheckOptions, upstream: Exclude<SmsActivateUpstream, "daisysms">): Promise<ProviderCheckRow> {
  const profile = SMS_ACTIVATE_PROFILES[upstream];
  const keyVar = upstream === "herosms" ? "HEROSMS_API_KEY" : "GRIZZLY_API_KEY";
  const baseUrl = (upstream === "herosms" ? env.HEROSMS_BASE_URL : env.GRIZZLY_BASE_URL) || profile.defaultBaseUrl;
  const currencyVar = upstream === "grizzly" ? (env.GRIZZLY_CURRENCY ?? "").trim().toUpperCase() : "";
  const currency: UpstreamCurrency = isUpstreamCurrency(currencyVar) ? (currencyVar as UpstreamCurrency) : profile.currency;
  const serves = `${profile.label} as a fallback route`;
  const row: ProviderCheckRow = { provider: `${profile.label} (fallback upstream)`, reachable: false, authenticated: null, currency, balance: "n/a", breaks: "" };
  const keys = (env[keyVar] ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  if (keys.length === 0) return { ...row, skipped: true, balance: `not configured (${keyVar} unset): never routed to` };
  const balances: string[] = [];
  try {
    let offers = 0;
    for (const [i, key] of keys.entries()) {
      const sms = new SmsActivateProvider({ profile, baseUrl, key, currency, fetch: fetchFor(upstream), timeoutMs });
      const balance = await sms.balance();
      balances.push(`#${i + 1} ${money(balance)}`);
      const low = balanceBreaks(balance, serves);
      if (low) return { ...row, reachable: true, authenticated: true, balance: balances.join(", "), breaks: `account #${i + 1}: ${low}` };
      if (i === 0) offers = (await sms.services("5")).length;
    }
    return {
      ...row,
      reachable: true,
      authenticated: true,
      currency: `${currency} (getPrices USA: ${offers} offers)`,
      balance: balances.join(", "),
      breaks: offers === 0 ? `${serves}: getPrices lists no service for USA` : "",
    };
  } catch (err) {
    return smsRow({ ...row, balance: balances.join(", ") || "n/a" }, err, serves, keyVar);
  }
}

/**
 * HeroSMS's rentals (issue 49: the SMS-Activate rent protocol, the rent upstream whose documents define extension):
 * our balance on the first account (the one that rents) and one rent price list, getRentServicesAndCountries for one
 * day in the USA (a read, nothing rented). Without HEROSMS_API_KEY it is not configured: Rent Number never routes to it,
 * and no rental can be extended.
 */
async function checkHeroSmsRent({ env, fetchFor, timeoutMs }: ProvidersCheckOptions): Promise<ProviderCheckRow> {
  const profile = SMS_ACTIVATE_PROFILES.herosms;
  const serves = "extendable rentals";
  const row: ProviderCheckRow = { provider: `${profile.label} rent (Rent Number, extendable)`, reachable: false, authenticated: null, currency: profile.currency, balance: "n/a", breaks: "" };
  const key = (env.HEROSMS_API_KEY ?? "").split(",")[0]?.trim() ?? "";
  if (!key) return { ...row, skipped: true, balance: "not configured (HEROSMS_API_KEY unset): rentals stay on sms-man, none extendable" };
  const rent = new SmsActivateRentProvider({ profile, baseUrl: env.HEROSMS_BASE_URL || profile.defaultBaseUrl, key, fetch: async (request) => fetchFor("herosms-rent")(request), timeoutMs });
  try {
    const balance = await rent.balance();
    const [day] = await rent.limits({ countryId: "5", unit: "day", period: 1 });
    return {
      ...row,
      reachable: true,
      authenticated: true,
      currency: `${balance.currency} (getRentServicesAndCountries USA, 1 day: ${day ? `${day.cost.toFixed(2)} ${day.currency}, ${day.count} numbers` : "none"})`,
      balance: money(balance),
      breaks: balanceBreaks(balance, serves),
    };
  } catch (err) {
    return smsRow(row, err, serves, "HEROSMS_API_KEY");
  }
}

/** The table the script prints: one line per provider, "OK" or what would break. */
export function formatProviderTable(rows: ProviderCheckRow[]): string {
  const header = ["provider", "reachable", "authenticated", "currency", "balance", "what would break"];
  const cells = rows.map((r) => [
    r.provider,
    r.reachable ? "yes" : "NO",
    r.authenticated === null ? "-" : r.authenticated ? "yes" : "NO",
    r.currency,
    r.balance,
    r.breaks || "nothing: OK",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
