import { z } from "zod";

/**
 * Issue 47 (decision 069): codes that reach the customer anywhere. Web Push to this device, the customer's choices
 * (Settings → Notifications) and rental forwarding (e-mail, a signed webhook, the linked Telegram chat). The worker
 * builds every notification's words; the service worker (web/sw/) shows exactly what it is sent.
 */

/**
 * What a push can be about, each a choice in Settings. "refund" is an order or rental ended with its money back;
 * "rental.reminder" the renewal reminders and "your rental ends in 1 hour"; "withdrawal" a cash out requested, paid,
 * failed or reversed (issue 45). A kind added later starts on for everyone (the stored choice lists the kinds turned off).
 */
export const PUSH_KINDS = ["sms.code", "rental.sms", "payment.credited", "refund", "rental.reminder", "withdrawal"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PUSH_KIND_LABELS: Record<PushKind, string> = {
  "sms.code": "Codes for numbers you bought",
  "rental.sms": "Messages to your rented numbers",
  "payment.credited": "Money added to your wallet",
  refund: "Refunds",
  "rental.reminder": "Rental reminders (renewals, ends in 1 hour)",
  withdrawal: "Cash out (requested, paid, failed, reversed)",
};

/**
 * Where a channel_deliveries row goes. "telegram" is reserved: the bot's messages are the telegram room's own deliveries
 * (telegram_deliveries, decision 070), chosen per rental like these (decision 069); nothing writes it here.
 */
export const DELIVERY_CHANNELS = ["push", "email", "webhook", "telegram"] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
export const CHANNEL_DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed", "dropped"] as const;

/** A device may hold this many push subscriptions per account; more is refused with a sentence. */
export const MAX_PUSH_DEVICES = 10;

/**
 * The JSON a push carries (encrypted to the device) and the service worker shows: title and body as the lock screen
 * will read them (without the code when the customer asked to hide it), the tag that makes a second push about the same
 * order replace the first, and the app link a tap opens.
 */
export interface PushNotificationPayload {
  v: 1;
  kind: PushKind;
  title: string;
  body: string;
  /** "sms:<orderId>", "rental:<rentalId>", "payment:<paymentId>": one notification per order. */
  tag: string;
  /** An absolute link into the web client (WEB_CLIENT_URL), e.g. https://app.example.ng/#/sms/1?order=<id>. */
  url: string;
  /** ISO 8601: when the event happened. */
  at: string;
}

// base64url as PushSubscription.toJSON() writes it (RFC 4648 §5, no padding; a padded copy is accepted and trimmed).
const base64urlOf = (octets: number, name: string) => {
  const chars = Math.ceil((octets * 4) / 3);
  return z
    .string({ error: `${name} is required.` })
    .max(chars + 2, `${name} is too long: it must be ${octets} octets in base64url.`)
    .transform((s) => s.replace(/=+$/, ""))
    .refine((s) => new RegExp(`^[A-Za-z0-9_-]{${chars}}$`).test(s), `${name} must be ${octets} octets in base64url.`);
};

/** PushSubscription.toJSON() as a browser sends it when push is turned on (oversized keys are refused). */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: "endpoint is required." })
    .max(1000, "endpoint is at most 1000 characters.")
    .url({ error: "endpoint must be a URL." }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      // An uncompressed P-256 point: 0x04 then x and y, which base64url starts with "B".
      p256dh: base64urlOf(65, "keys.p256dh").refine((s) => s.startsWith("B"), "keys.p256dh must be an uncompressed P-256 public key."),
      auth: base64urlOf(16, "keys.auth"),
    },
    { error: "keys is required." },
  ),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/**
 * The service worker's renewal after `pushsubscriptionchange` (it holds no session token): the old subscription's
 * endpoint and auth secret prove it is the same browser, and the new one replaces it in place.
 */
export const pushRenewalSchema = z.object({
  old_endpoint: z.string({ error: "old_endpoint is required." }).max(1000, "old_endpoint is at most 1000 characters.").url({ error: "old_endpoint must be a URL." }),
  old_auth: base64urlOf(16, "old_auth"),
  subscription: z.object(pushSubscriptionSchema.shape, { error: "subscription is required." }),
});
export type PushRenewalInput = z.infer<typeof pushRenewalSchema>;

export const pushDeviceIdSchema = z.object({ id: z.string().min(1).max(64) });

/** Settings → Notifications: push choices. Every field optional: the screen sends what changed. */
export const notificationPreferencesSchema = z.object({
  kinds: z.partialRecord(z.enum(PUSH_KINDS), z.boolean()).optional(),
  hide_code: z.boolean().optional(),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesSchema>;

const forwardingUrlSchema = z
  .string({ error: "webhook_url is required: a URL, or null for none." })
  .trim()
  .max(500, "A forwarding URL is at most 500 characters.")
  .url({ error: "Please enter a full URL starting with https://." })
  .nullable();

/**
 * Where rental messages are forwarded: the account's default (Settings) or one rental's own. `telegram` (the linked
 * chat, issue 48's bot) may be left out: it then stays as it was (a client from before the bot keeps working).
 */
export const rentalForwardingSchema = z.object({
  email: z.boolean({ error: "email must be true or false." }),
  webhook_url: forwardingUrlSchema,
  telegram: z.boolean({ error: "telegram must be true or false." }).optional(),
});
export type RentalForwardingInput = z.infer<typeof rentalForwardingSchema>;

export interface PushDeviceView {
  id: string;
  /** "Chrome on Android": the browser as its User-Agent said when it subscribed. */
  label: string;
  /** The push service's host (fcm.googleapis.com, web.push.apple.com, ...): tells browsers apart. */
  push_service: string;
  created_at: string;
  last_pushed_at: string | null;
  /** The device asking: the one "Turn off on this device" removes. */
  this_session: boolean;
}

export interface ForwardingView {
  email: boolean;
  webhook_url: string | null;
  /**
   * To the account's linked Telegram chat (issue 48's bot). On by default: connecting the bot is asking for messages
   * there. Nothing is sent while no chat is linked.
   */
  telegram: boolean;
}

export interface NotificationSettingsView {
  push: {
    /** The VAPID public key browsers subscribe with (base64url); null when this deployment cannot push. */
    public_key: string | null;
    devices: PushDeviceView[];
    kinds: Record<PushKind, boolean>;
    hide_code: boolean;
  };
  forwarding: ForwardingView & {
    /** Where forwarded e-mail goes: the account's address. */
    email_address: string;
    /** Signs the forwarding webhook's posts (Standard Webhooks, like developer webhooks); null until a URL is set. */
    webhook_secret: string | null;
  };
}

export interface RentalForwardingView extends ForwardingView {
  /** true: this rental follows the account's default (Settings → Notifications). */
  inherited: boolean;
}
