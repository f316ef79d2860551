import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CHANNEL_DELIVERY_STATUSES, DELIVERY_CHANNELS } from "../../../schema/notifications";
import { now, users } from "../kernel/tables";
import { rentals } from "../rent/tables";

/**
 * The notifications room's tables (issue 47, decision 069): Web Push subscriptions, the customer's choices, rental
 * forwarding and the deliveries each outbox event fans out to.
 */

/**
 * One browser that receives Web Push (a PushSubscription, RFC 8030/8291). It belongs to the session that turned it on:
 * a signed-out or revoked session's device gets nothing (fan-out and send both ask accounts whether the session is
 * live), and the sweep forgets it (session_id is no foreign key: the accounts room purges dead sessions on its own).
 * The endpoint is unique: the same browser turning push on again (same keys) moves the row to the new session.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    sessionId: text("session_id").notNull(),
    endpoint: text("endpoint").notNull(),
    // The browser's keys, base64url: p256dh the P-256 public key (65 octets), auth the 16-octet secret (RFC 8291 §3).
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    // What the device list shows (the browser's User-Agent when it subscribed, cut to 256 characters).
    userAgent: text("user_agent"),
    createdAt: integer("created_at").notNull().default(now),
    lastPushedAt: integer("last_pushed_at"),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_unique").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
    index("push_subscriptions_session_idx").on(t.sessionId),
  ],
);

/**
 * The customer's notification choices (Settings → Notifications); no row is every default: every kind pushed, the code
 * shown, nothing forwarded by e-mail or webhook, rental messages to a linked Telegram chat. push_muted lists the kinds (schema/notifications.ts PUSH_KINDS) the customer turned off, so a
 * kind added later (withdrawals) starts on without a migration. The forwarding webhook's secret signs its posts like
 * the developer webhooks (Standard Webhooks), made when a URL is first set.
 */
export const notificationSettings = sqliteTable("notification_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  pushMuted: text("push_muted").notNull().default("[]"),
  hideCode: integer("hide_code", { mode: "boolean" }).notNull().default(false),
  forwardEmail: integer("forward_email", { mode: "boolean" }).notNull().default(false),
  forwardWebhookUrl: text("forward_webhook_url"),
  forwardWebhookSecret: text("forward_webhook_secret"),
  // Rental messages to the linked Telegram chat: on unless turned off (linking the bot is asking for them there).
  forwardTelegram: integer("forward_telegram", { mode: "boolean" }).notNull().default(true),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * One rental's own forwarding, replacing the account's default for that rental (no row: the default). telegram: to the
 * account's linked chat (the telegram room asks `forwardsToTelegram`); its default true keeps rows written before the
 * bot's choice existed sending there, as they did.
 */
export const rentalForwarding = sqliteTable(
  "rental_forwarding",
  {
    rentalId: text("rental_id")
      .primaryKey()
      .references(() => rentals.id),
    userId: text("user_id").notNull().references(() => users.id),
    email: integer("email", { mode: "boolean" }).notNull().default(false),
    webhookUrl: text("webhook_url"),
    telegram: integer("telegram", { mode: "boolean" }).notNull().default(true),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("rental_forwarding_user_idx").on(t.userId)],
);

/**
 * What an outbox event fans out to beyond the room and the developer webhooks: one row per (event, channel, target),
 * written in the batch that marks the event delivered (services/kernel/outbox.ts), so each event reaches each device or
 * forwarding target once. The customer's delivery job on the queue sends them (decision 073): a send claims its row first (status sending,
 * its lease in next_attempt_at), so two runs never send one row at once; a run that died mid-send leaves the lease to
 * expire and the row is tried again.
 * target: push, the subscription id; email, the address; webhook, the URL. payload: what goes out, built at fan-out
 * from the customer's choices then (the notification's JSON; the e-mail's subject and text; the webhook's body).
 */
export const channelDeliveries = sqliteTable(
  "channel_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    userId: text("user_id").notNull().references(() => users.id),
    channel: text("channel", { enum: DELIVERY_CHANNELS }).notNull(),
    target: text("target").notNull(),
    payload: text("payload").notNull(),
    // pending -> sending -> delivered | failed (given up) | dropped (the device or its session is gone)
    status: text("status", { enum: CHANNEL_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    // Past this, a push is not worth sending (its TTL); a forward gives up after 24 hours of failures.
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    uniqueIndex("channel_deliveries_once").on(t.eventId, t.channel, t.target),
    index("channel_deliveries_due_idx").on(t.userId, t.status, t.nextAttemptAt),
    index("channel_deliveries_sweep_idx").on(t.status, t.nextAttemptAt),
    check("channel_deliveries_delivered", sql`(${t.status} = 'delivered') = (${t.deliveredAt} IS NOT NULL)`),
  ],
);
