import { and, eq } from "drizzle-orm";
import type { RentalForwardingInput, RentalForwardingView } from "../../../schema/notifications";
import type { Db } from "../../db/client";
import { enforceCostLimit } from "../kernel";
import { findRental, ownedRental } from "../rent";
import { ensureWebhookSecret, refuseForwardingUrl } from "./notification-settings";
import { notificationSettings, rentalForwarding } from "./tables";

/**
 * One rental's forwarding (issue 47): every message to the account's e-mail, a webhook URL and/or the linked Telegram
 * chat, instead of the account's default (Settings → Notifications). Another customer's rental is 404 (ownedRental).
 */

/** What a rental forwards to, its own choice or else the account's default (the rental's ownership is the caller's). */
async function forwardingOf(db: Db, userId: string, rentalId: string): Promise<RentalForwardingView> {
  const [[own], [defaults]] = await Promise.all([
    db.select().from(rentalForwarding).where(and(eq(rentalForwarding.rentalId, rentalId), eq(rentalForwarding.userId, userId))).limit(1),
    db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1),
  ]);
  if (own) return { email: own.email, webhook_url: own.webhookUrl, telegram: own.telegram, inherited: false };
  return { email: defaults?.forwardEmail ?? false, webhook_url: defaults?.forwardWebhookUrl ?? null, telegram: defaults?.forwardTelegram ?? true, inherited: true };
}

export async function rentalForwardingView(db: Db, userId: string, rentalId: string): Promise<RentalForwardingView> {
  await ownedRental(db, userId, rentalId);
  return forwardingOf(db, userId, rentalId);
}

/**
 * Whether a rental's messages and reminders go to the account's linked Telegram chat (the telegram room's delivery asks
 * at fan-out). A rental of another account forwards nothing there.
 */
export async function forwardsToTelegram(db: Db, userId: string, rentalId: string): Promise<boolean> {
  const rental = await findRental(db, rentalId);
  return rental?.userId === userId && (await forwardingOf(db, userId, rentalId)).telegram;
}

export async function setRentalForwarding(db: Db, userId: string, rentalId: string, input: RentalForwardingInput, now: number): Promise<RentalForwardingView> {
  refuseForwardingUrl(input.webhook_url);
  await ownedRental(db, userId, rentalId);
  await enforceCostLimit(db, userId, "notifications", now);
  await ensureWebhookSecret(db, userId, input.webhook_url !== null, now);
  // Left out, Telegram keeps what this rental did until now (its own choice or the default it followed).
  const telegram = input.telegram ?? (await forwardingOf(db, userId, rentalId)).telegram;
  const set = { email: input.email, webhookUrl: input.webhook_url, telegram, updatedAt: now };
  await db
    .insert(rentalForwarding)
    .values({ rentalId, userId, ...set })
    .onConflictDoUpdate({ target: rentalForwarding.rentalId, set });
  return { email: input.email, webhook_url: input.webhook_url, telegram, inherited: false };
}

/**
 * The bot's switch on a rental's screen: Telegram on or off for this rental alone, the e-mail and webhook as they were
 * (a rental that followed the default keeps the default's e-mail and webhook as its own from now on).
 */
export async function setRentalTelegramForwarding(db: Db, userId: string, rentalId: string, on: boolean, now: number): Promise<RentalForwardingView> {
  await ownedRental(db, userId, rentalId);
  const current = await forwardingOf(db, userId, rentalId);
  return setRentalForwarding(db, userId, rentalId, { email: current.email, webhook_url: current.webhook_url, telegram: on }, now);
}

/** Back to the account's default. */
export async function clearRentalForwarding(db: Db, userId: string, rentalId: string, now: number): Promise<RentalForwardingView> {
  await ownedRental(db, userId, rentalId);
  await enforceCostLimit(db, userId, "notifications", now);
  await db.delete(rentalForwarding).where(eq(rentalForwarding.rentalId, rentalId));
  return rentalForwardingView(db, userId, rentalId);
}
