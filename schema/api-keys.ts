import { z } from "zod";

/** Developer API keys as the Settings "API" section and /api/keys speak them (docs/api.md "Developer API"). */
const apiKeyModeSchema = z.enum(["test", "live"]);
export type ApiKeyMode = z.infer<typeof apiKeyModeSchema>;

export const createApiKeySchema = z.object({
  // The type error's own message too: zod's default ("expected string, received undefined") is no message for a person.
  name: z.string({ error: "Please give the key a name." }).trim().min(1, "Please give the key a name.").max(60, "A key name is at most 60 characters."),
  mode: apiKeyModeSchema.default("test"),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export interface ApiKeyView {
  id: string;
  name: string;
  mode: ApiKeyMode;
  /** The first characters of the secret, e.g. "sk_test_Ab12Cd": enough to tell keys apart, useless to an attacker. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  webhook_url: string | null;
  /** What the key may do beyond buying and renting: "withdraw" (POST /api/v1/withdrawals, issue 45). */
  scopes: ApiKeyScope[];
}

/**
 * A key's extra powers (issue 45). "withdraw" sends the wallet's money to the owner's name-matched bank account, so
 * only an owner who proved a passkey or TOTP in the last 10 minutes may grant it (a password alone never does), and
 * only to a live key (a test key spends play money).
 */
export const API_KEY_SCOPES = ["withdraw"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKeyScopesSchema = z.object({
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: "The only scope is withdraw." }), { error: 'scopes is a list: ["withdraw"], or [] for none.' })
    .max(API_KEY_SCOPES.length, 'scopes is a list: ["withdraw"], or [] for none.'),
});

/** The answer to creating a key: the only time the secret is ever shown. */
export interface CreatedApiKey extends ApiKeyView {
  secret: string;
  webhook_secret: string;
}

export const apiKeyIdSchema = z.object({ id: z.string().min(1).max(64) });

export const sandboxTopUpSchema = z.object({
  amount: z
    .number({ error: "amount must be a number of naira." })
    .int("amount must be whole naira.")
    .min(1, "amount must be at least ₦1.")
    .max(1_000_000, "A sandbox top-up is at most ₦1,000,000."),
});

/** Webhook events (docs/developer-api.md "Webhooks"). */
export type WebhookEventType =
  | "sms.code"
  | "sms.ended"
  | "rental.sms"
  | "rental.ended"
  | "rental.renewing"
  | "balance.changed"
  | "payment.failed"
  | "withdrawal.requested"
  | "withdrawal.paid"
  | "withdrawal.failed"
  | "withdrawal.reversed"
  | "subaccount.created"
  | "subaccount.frozen"
  | "subaccount.unfrozen"
  | "subaccount.closed"
  | "subaccount.transfer";

export const webhookUrlSchema = z.object({
  url: z
    .url({ protocol: /^https?$/, error: "Please enter a full URL starting with https://." })
    .max(500, "A webhook URL is at most 500 characters.")
    .nullable(),
});

export const webhookEventIdSchema = z.object({ id: z.string().min(1).max(64), eventId: z.string().min(1).max(64) });

/** pending (queued or retrying), delivered (a 2xx came back), failed (24 hours without a 2xx, or nowhere to send) */
export const WEBHOOK_EVENT_STATUSES = ["pending", "delivered", "failed"] as const;

/** One line of a key's delivery log. */
export interface WebhookEventView {
  id: string;
  type: WebhookEventType;
  status: (typeof WEBHOOK_EVENT_STATUSES)[number];
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  /** The JSON body the receiver gets. */
  payload: Record<string, unknown>;
}

/**
 * The developer's `ref` share (issue 46, docs/decisions/075), GET /api/keys/ref-share: the code to put in `ref`, the
 * share in percent of our price, and what it earned on the live wallet (naira, net of reversals; `orders`: kept orders
 * and rentals still earning, each a `ref_share` ledger row), in all and over the last 30 days.
 */
export interface DeveloperShareView {
  code: string;
  percent: number;
  earned: number;
  orders: number;
  last_30_days: { earned: number; orders: number };
  currency: "NGN";
}
