import { eq, sql } from "drizzle-orm";
import {
  PUSH_KINDS,
  type NotificationPreferencesInput,
  type NotificationSettingsView,
  type PushKind,
  type RentalForwardingInput,
} from "../../../schema/notifications";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { publicHttpsProblem } from "../../lib/public-address";
import { enforceCostLimit } from "../kernel";
import { mutedKinds } from "./delivery-channels";
import { listPushDevices, type PushDeviceOwner } from "./push-devices";
import { notificationSettings } from "./tables";

/**
 * Settings → Notifications (issue 47): which kinds push, "hide the code on the lock screen", and where rental messages
 * are forwarded by default (a rental may choose its own: rental-forwarding.ts). No row is every default.
 */

export interface SettingsOwner extends Pick<PushDeviceOwner, "userId" | "sessionId"> {
  email: string;
}

type Row = typeof notificationSettings.$inferSelect;

async function settingsRow(db: Db, userId: string): Promise<Row | undefined> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1);
  return row;
}

export async function notificationSettingsView(db: Db, config: Pick<Config, "vapid">, owner: SettingsOwner, now: number): Promise<NotificationSettingsView> {
  const [row, devices] = await Promise.all([settingsRow(db, owner.userId), listPushDevices(db, owner, now)]);
  const muted = mutedKinds(row?.pushMuted);
  return {
    push: {
      public_key: config.vapid?.publicKey ?? null,
      devices,
      kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, !muted.has(k)])) as Record<PushKind, boolean>,
      hide_code: row?.hideCode ?? false,
    },
    forwarding: {
      email: row?.forwardEmail ?? false,
      email_address: owner.email,
      webhook_url: row?.forwardWebhookUrl ?? null,
      telegram: row?.forwardTelegram ?? true,
      webhook_secret: row?.forwardWebhookSecret ?? null,
    },
  };
}

/** Saves what the screen changed of the push choices; what it left out stays. */
export async function updatePushPreferences(db: Db, config: Pick<Config, "vapid">, owner: SettingsOwner, input: NotificationPreferencesInput, now: number): Promise<NotificationSettingsView> {
  await enforceCostLimit(db, owner.userId, "notifications", now);
  const row = await settingsRow(db, owner.userId);
  const muted = mutedKinds(row?.pushMuted);
  for (const [kind, on] of Object.entries(input.kinds ?? {}) as [PushKind, boolean | undefined][]) {
    if (on === true) muted.delete(kind);
    else if (on === false) muted.add(kind);
  }
  const set = { pushMuted: JSON.stringify(PUSH_KINDS.filter((k) => muted.has(k))), hideCode: input.hide_code ?? row?.hideCode ?? false, updatedAt: now };
  await db
    .insert(notificationSettings)
    .values({ userId: owner.userId, ...set })
    .onConflictDoUpdate({ target: notificationSettings.userId, set });
  return notificationSettingsView(db, config, owner, now);
}

/** Why a forwarding URL cannot be used, or null: https on the public internet only (never localhost or a private range). */
export function forwardingUrlProblem(url: string): string | null {
  return publicHttpsProblem(url, "The forwarding URL");
}

export function refuseForwardingUrl(url: string | null): void {
  if (url === null) return;
  const problem = forwardingUrlProblem(url);
  if (problem) throw new AppError("VALIDATION_FAILED", problem, { field: "webhook_url" });
}

/** A Standard Webhooks secret: "whsec_" and 32 random octets in base64 (https://www.standardwebhooks.com). */
function newWebhookSecret(): string {
  let binary = "";
  for (const b of crypto.getRandomValues(new Uint8Array(32))) binary += String.fromCharCode(b);
  return `whsec_${btoa(binary)}`;
}

/**
 * The account's default forwarding for rental messages (e-mail to the account's address, a webhook URL, the linked
 * Telegram chat: left out, it stays as it was). The webhook's signing secret is made when a URL is first set and kept
 * after (a receiver keeps verifying with it).
 */
export async function setForwardingDefaults(db: Db, config: Pick<Config, "vapid">, owner: SettingsOwner, input: RentalForwardingInput, now: number): Promise<NotificationSettingsView> {
  refuseForwardingUrl(input.webhook_url);
  await enforceCostLimit(db, owner.userId, "notifications", now);
  await ensureWebhookSecret(db, owner.userId, input.webhook_url !== null, now);
  const set = { forwardEmail: input.email, forwardWebhookUrl: input.webhook_url, ...(input.telegram === undefined ? {} : { forwardTelegram: input.telegram }), updatedAt: now };
  await db
    .insert(notificationSettings)
    .values({ userId: owner.userId, ...set })
    .onConflictDoUpdate({ target: notificationSettings.userId, set });
  return notificationSettingsView(db, config, owner, now);
}

/** Makes the account's forwarding secret when a webhook is set and none exists yet (one kept stays). */
export async function ensureWebhookSecret(db: Db, userId: string, needed: boolean, now: number): Promise<void> {
  if (!needed) return;
  const secret = newWebhookSecret();
  await db
    .insert(notificationSettings)
    .values({ userId, forwardWebhookSecret: secret, updatedAt: now })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { forwardWebhookSecret: sql`COALESCE(${notificationSettings.forwardWebhookSecret}, ${secret})` } });
}
