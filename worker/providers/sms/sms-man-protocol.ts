import { z } from "zod";
import { excerpt, type UpstreamClient, type UpstreamRequest } from "../upstream-http";
import { isUpstreamCurrency, smsFault, smsRequest, type SmsFaultKind, type UpstreamCurrency } from "./types";

/**
 * What sms-man's two APIs share, read one way by both adapters (sms/sms-man.ts for activations, rent/sms-man-rent.ts
 * for rentals): the reply shapes (zod), the error object and its words, and the one call that turns an HTTP reply
 * into either a body or a documented error.
 *
 * Both APIs document the same conventions (https://sms-man.com/api, https://sms-man.com/api/rent): GET with
 * token=..., JSON replies, errors {"success":false,"error_code":"...","error_msg": string | {field: string}}, balances
 * {"balance":"799.70"} in the account's currency, ids and amounts as strings or numbers.
 */

/** An id as the documents show them: "1" or 1. */
export const smsManId = z.union([z.string().trim().min(1), z.number()]).transform(String);
/** An amount or a count: "151.68", "127" or 127. */
export const smsManNumeric = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/)]).transform(Number);

/**
 * The documented error object; error_msg is a string on some methods and {"token": "Wrong token!"} on others (kept
 * as whatever came: it only goes to logs). {"success":false} without a word is still a refusal, never an answer.
 */
export const smsManErrorSchema = z.union([
  z.object({ success: z.literal(false).optional(), error_code: z.string(), error_msg: z.unknown().optional() }),
  z.object({ success: z.literal(false), error_msg: z.unknown().optional() }).transform((e) => ({ ...e, error_code: "" })),
]);
export type SmsManError = z.infer<typeof smsManErrorSchema>;

/** get-balance (both APIs) -> {"balance":"799.70"}: the account's currency unless the reply states one. */
export const smsManBalanceSchema = z.object({ balance: smsManNumeric, currency: z.string().optional() }).passthrough();

/** set-status (both APIs) -> {"request_id":1,"success":true}. */
export const smsManSuccessSchema = z.object({ success: z.literal(true) }).passthrough();

/** countries (/control/countries, also what rentals name countries by): a map keyed by id (documented) or a list. */
const smsManNamedSchema = z.object({ id: smsManId, title: z.string().optional(), name: z.string().optional(), code: z.string().optional() }).passthrough();
export type SmsManNamed = z.infer<typeof smsManNamedSchema>;
const listOrMapSchema = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

/** The entries of a countries or applications reply that carry an id; null when the reply is neither a list nor a map. */
export function readSmsManNamed(body: unknown): SmsManNamed[] | null {
  const parsed = listOrMapSchema.safeParse(body);
  if (!parsed.success) return null;
  const values = Array.isArray(parsed.data) ? parsed.data : Object.values(parsed.data);
  return values.flatMap((v) => {
    const item = smsManNamedSchema.safeParse(v);
    return item.success ? [item.data] : [];
  });
}

/**
 * sms-man's error words and what they mean for us. Documented: wrong_token (https://sms-man.com/api,
 * https://sms-man.com/api/rent), wait_sms (get-sms while waiting: not a fault, see readSmsManReply's callers).
 * Seen in public clients and sms-man's compat API: balance / not_enough_balance / no_balance, no_numbers, wrong_status,
 * wrong_country, wrong_application, wrong_request_id, max_price. An unknown word is a refusal, never a success.
 * Both adapters read this one table; the rentals map its kinds to their own (rent/sms-man-rent.ts).
 */
export const SMS_MAN_ERRORS: Record<string, SmsFaultKind> = {
  wrong_token: "bad_key",
  bad_key: "bad_key",
  balance: "no_balance",
  no_balance: "no_balance",
  not_enough_balance: "no_balance",
  no_numbers: "no_numbers",
  no_number: "no_numbers",
  no_free_numbers: "no_numbers",
  numbers_not_found: "no_numbers",
  no_stock: "no_numbers",
  wrong_country: "bad_service",
  wrong_application: "bad_service",
  wrong_application_id: "bad_service",
  wrong_request_id: "not_found",
  request_not_found: "not_found",
  max_price: "price_exceeded",
  price_exceeded: "price_exceeded",
  wrong_max_price: "price_exceeded",
  server_error: "unavailable",
};

/** The fault an error word stands for (unknown words are refusals). */
export function smsManFaultKind(code: string): SmsFaultKind {
  return SMS_MAN_ERRORS[code] ?? "rejected";
}

/** error_msg for logs: a string, or an object's values joined (never the raw reply). */
export function describeSmsManError(msg: unknown): string {
  if (typeof msg === "string") return excerpt(msg);
  if (msg && typeof msg === "object") return excerpt(Object.values(msg).map(String).join("; "));
  return "";
}

export type SmsManReply = { ok: true; body: unknown } | { ok: false; error: SmsManError };

/**
 * One call to either API through the shared upstream client (deadline, User-Agent, the one transport-fault mapping in
 * smsRequest: a timeout is "timeout", a network failure or a 5xx/429 is "unavailable"). The reply is then read the
 * documented way: a JSON body is either the documented error object (returned for the caller to judge: wait_sms is
 * "nothing yet", the rest are faults by SMS_MAN_ERRORS) or the method's answer. A body that is not JSON, or an HTTP
 * error status without the error object, is a bad reply. Throws SmsProviderError.
 */
export async function smsManRequest(http: UpstreamClient, path: string, init: UpstreamRequest): Promise<SmsManReply> {
  const { status, text } = await smsRequest(http, path, init);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw smsFault("bad_reply", `${path}: HTTP ${status}, not JSON: ${excerpt(text)}`);
  }
  const error = smsManErrorSchema.safeParse(body);
  if (error.success) return { ok: false, error: error.data };
  if (status >= 400) throw smsFault("bad_reply", `${path}: HTTP ${status}`);
  return { ok: true, body };
}

/** The fault for a documented error reply, with the word and its message for logs. */
export function smsManFault(path: string, error: SmsManError) {
  return smsFault(smsManFaultKind(error.error_code), `${path}: ${error.error_code} ${describeSmsManError(error.error_msg)}`.trim());
}

/** A currency a reply states (RUB/USD/EUR), or null: the caller then uses the account's. */
export function statedCurrency(currency: unknown): UpstreamCurrency | null {
  return isUpstreamCurrency(currency) ? (currency.toUpperCase() as UpstreamCurrency) : null;
}
