import { z } from "zod";
import { hexDigestsEqual, hmacSha512Hex } from "./signatures";

/**
 * Squad's virtual-account notifications, read and verified as Squad documents them. Squad posts every notification of
 * a merchant to the one webhook URL of its dashboard, so these arrive at /api/webhooks/squad beside the card's
 * charge_successful and are told apart by their shape.
 *
 * Dynamic accounts (https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2#webhooks):
 *   { transaction_status: SUCCESS | MISMATCH | EXPIRED, merchant_reference, merchant_amount, amount_received,
 *     transaction_reference, email, merchant_id, transaction_type: "dynamic_virtual_account", date, sender_name }
 *   signed in x-squad-encrypted-body: HMAC-SHA512, secret key, over the JSON {"transaction_reference",
 *   "amount_received", "merchant_reference"} (in that order, the values as the body carries them), hex
 *   (#hash-signature-validation).
 * Static accounts (https://docs.squadco.com/Virtual-accounts/api-specifications, Transaction Notification Service):
 *   { transaction_reference, virtual_account_number, principal_amount, settled_amount, fee_charged, transaction_date,
 *     customer_identifier, transaction_indicator, remarks, currency, channel: "virtual-account", sender_name, ...,
 *     version? } signed in x-squad-signature: version 1 over the entire body; versions 2 and 3 over
 *   `transaction_reference|virtual_account_number|currency|principal_amount|settled_amount|customer_identifier`.
 * Both signatures are computed from the raw body's own text (never a re-serialised object of ours), compared in
 * constant time.
 */

const money = z.union([z.string(), z.number()]).transform(String);

export const dynamicNoticeSchema = z.object({
  transaction_status: z.string(),
  merchant_reference: z.string().min(1).max(120),
  merchant_amount: money.optional(),
  amount_received: money,
  transaction_reference: z.string().min(1).max(200),
  transaction_type: z.string().optional(),
  sender_name: z.string().nullish(),
  date: z.string().optional(),
});
export type DynamicNotice = z.infer<typeof dynamicNoticeSchema>;

export const staticNoticeSchema = z.object({
  transaction_reference: z.string().min(1).max(200),
  virtual_account_number: z.string().min(1).max(20),
  principal_amount: money,
  settled_amount: money,
  customer_identifier: z.string().max(120).nullish(),
  transaction_indicator: z.string().optional(),
  currency: z.string().optional(),
  channel: z.string().optional(),
  sender_name: z.string().nullish(),
  version: z.string().optional(),
});
export type StaticNotice = z.infer<typeof staticNoticeSchema>;

export type TransferNotice = { kind: "dynamic"; notice: DynamicNotice } | { kind: "static"; notice: StaticNotice };

/** Which virtual-account notification a JSON body is, if any (a card event has `Event`). */
export function transferNoticeKind(body: unknown): "dynamic" | "static" | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if ("Event" in b) return null;
  if (b.transaction_type === "dynamic_virtual_account" || ("merchant_reference" in b && "amount_received" in b)) return "dynamic";
  if ("virtual_account_number" in b && "principal_amount" in b) return "static";
  return null;
}

/** The exact string Squad hashes for a dynamic-account notification. */
export function dynamicSignedText(fields: { transaction_reference: unknown; amount_received: unknown; merchant_reference: unknown }): string {
  return JSON.stringify({
    transaction_reference: fields.transaction_reference,
    amount_received: fields.amount_received,
    merchant_reference: fields.merchant_reference,
  });
}

/** The exact string Squad hashes for a static-account notification of version 2 or 3. */
export function staticSignedText(b: Record<string, unknown>): string {
  return [b.transaction_reference, b.virtual_account_number, b.currency, b.principal_amount, b.settled_amount, b.customer_identifier].map((v) => String(v ?? "")).join("|");
}

export function signDynamicNotice(secretKey: string, body: Record<string, unknown>): Promise<string> {
  return hmacSha512Hex(secretKey, dynamicSignedText(body as Parameters<typeof dynamicSignedText>[0]));
}

export function signStaticNotice(secretKey: string, rawBody: string): Promise<string> {
  const body = JSON.parse(rawBody) as Record<string, unknown>;
  const version = String(body.version ?? "").toLowerCase();
  return hmacSha512Hex(secretKey, version === "v2" || version === "v3" ? staticSignedText(body) : rawBody);
}

/**
 * Verifies a virtual-account notification from its raw text and headers. Returns the parsed notice, or null when the
 * body is not one, or the signature is missing or wrong (the route answers 401 and changes nothing).
 */
export async function verifyTransferNotice(
  secretKey: string,
  rawBody: string,
  headers: { encryptedBody?: string | null; signature?: string | null },
): Promise<TransferNotice | null> {
  if (!secretKey) return null;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const kind = transferNoticeKind(body);
  if (kind === "dynamic") {
    const header = headers.encryptedBody;
    if (!header) return null;
    const expected = await signDynamicNotice(secretKey, body as Record<string, unknown>);
    if (!hexDigestsEqual(expected, header)) return null;
    const parsed = dynamicNoticeSchema.safeParse(body);
    return parsed.success ? { kind, notice: parsed.data } : null;
  }
  if (kind === "static") {
    const header = headers.signature ?? headers.encryptedBody;
    if (!header) return null;
    const expected = await signStaticNotice(secretKey, rawBody);
    if (!hexDigestsEqual(expected, header)) return null;
    const parsed = staticNoticeSchema.safeParse(body);
    return parsed.success ? { kind, notice: parsed.data } : null;
  }
  return null;
}
