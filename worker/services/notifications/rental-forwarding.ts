import { eq } from "drizzle-orm";
import type { RentalForwardingInput, RentalForwardingView } from "../../../schema/notifications";
import type { Db } from "../../db/client";
import { enforceCostLimit } from "../kernel";
import { ownedRental } from "../rent";
import { ensureWebhookSecret, refuseForwardingUrl } from "./notification-settings";
import { notificationSettings, rentalForwarding } from "./tables";

/**
 * One rental's forwarding (issue 47): every message to the account's e-mail and/or a webhook URL, instead of the
 * account's default (Settings → Notifications). Another customer's rental is 404 (ownedRental).
 */

export async function rentalForwardingView(db: Db, userId: string, rentalId: string): Promise<RentalForwardingView> {
  await ownedRental(db, userId, rentalId);
  const [[own], [defaults]] = await Promise.all([
    db.select().from(rentalForwarding).where(eq(rentalForwarding.rentalId, rentalId)).limit(1),
    db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1),
  ]);
  if (own) return { email: own.email, webhook_url: own.webhookUrl, inherited: false };
  return { email: defaults?.forwardEmail ?? false, webhook_url: defaults?.forwardWebhookUrl ?? null, inherited: true };
}

export async function setRentalForwarding(db: Db, userId: string, rentalId: string, input: RentalForwardingInput, now: number): Promise<RentalForwardingView> {
  refuseForwardingUrl(input.webhook_url);
  await ownedRental(db, userId, rentalId);
  await enforceCostLimit(db, userId, "notifications", now);
  await ensureWebhookSecret(db, userId, input.webhook_url !== null, now);
  const set = { email: input.email, webhookUrl: input.webhook_url, updatedAt: now };
  await db
    .insert(rentalForwarding)
    .values({ rentalId, userId, ...set })
    .onConflictDoUpdate({ target: rentalForwarding.rentalId, set });
  return { email: input.email, webhook_url: input.webhook_url, inherited: false };
}

/** Back to the account's default. */
export async function clearRentalForwarding(db: Db, userId: string, rentalId: string, now: number): Promise<RentalForwardingView> {
  await ownedRental(db, userId, rentalId);
  await enforceCostLimit(db, userId, "notifications", now);
  await db.delete(rentalForwarding).where(eq(rentalForwarding.rentalId, rentalId));
  return rentalForwardingView(db, userId, rentalId);
}
