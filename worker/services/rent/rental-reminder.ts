import { eq } from "drizzle-orm";
import { users } from "../kernel";
import { webLink } from "../../lib/public-origin";
import { configFor } from "../../config";
import { log } from "../../lib/log";
import { rentalEndingEmail } from "../accounts";
import { deliverEvents, type RentalDeps, transition } from "../kernel";
import type { RentalRow } from "./rental-views";
import { rental } from "./rental-transitions";

/**
 * The "your rental ends in about an hour" reminder (issue 17): a realtime toast on the customer's open screens and an
 * e-mail, once per rental (per expiry: an extension clears reminded_at so the new end is announced again). Issue 47:
 * its claim also writes the outbox event rental.ending, so the customer's Web Push devices and their rental forwarding
 * (a webhook) get it through the same channels as the rental's messages.
 *
 * Once: the watcher's alarm is at-least-once and may run twice, so the reminder is CLAIMED by a conditional UPDATE
 * (reminded_at IS NULL, still active, same expiry) and only the call whose UPDATE changed the row sends. A send that
 * fails after the claim is logged and not retried: a missed reminder is better than two.
 */
export const RENTAL_REMINDER_BEFORE_MS = 60 * 60_000;
/** A reminder owed sooner than this after renting would arrive with the number itself: none is sent. */
const MIN_AFTER_RENTING_MS = 15 * 60_000;

/**
 * When the reminder is due, or null when none is owed: already sent, not active, or a rental whose whole length is not
 * longer than the reminder's lead by MIN_AFTER_RENTING_MS (a 1-hour rental would be "reminded" the moment it is
 * rented).
 */
export function reminderDueAt(
  row: Pick<RentalRow, "status" | "expiresAt" | "createdAt" | "remindedAt"> & Partial<Pick<RentalRow, "autoRenewPriceKobo" | "autoRenewPaused">>,
): number | null {
  if (row.status !== "active" || row.expiresAt === null || row.remindedAt !== null) return null;
  // A rental that renews itself is reminded of the renewal instead (services/rent/renewals.ts), on the same column.
  if (row.autoRenewPriceKobo != null && row.autoRenewPaused == null) return null;
  if (row.expiresAt - row.createdAt < RENTAL_REMINDER_BEFORE_MS + MIN_AFTER_RENTING_MS) return null;
  return row.expiresAt - RENTAL_REMINDER_BEFORE_MS;
}

/** Sends the reminder when it is due and not yet sent. Returns true only for the call that sent it. */
export async function remindIfDue(deps: RentalDeps, row: RentalRow, now = deps.clock.now()): Promise<boolean> {
  const due = reminderDueAt(row);
  if (due === null || now < due || row.expiresAt === null || now >= row.expiresAt) return false;
  const told = { dedupe: `rental.ending:${row.id}:${row.expiresAt}`, message: { kind: "rental.ending" as const, rentalId: row.id, endsAt: new Date(row.expiresAt).toISOString() } };
  const claimed = await transition(deps.db, rental.remind, row.id, { userId: row.userId, column: "remindedAt", expiresAt: row.expiresAt, told }, now);
  if (!claimed.moved) return false;

  const minutes = Math.max(1, Math.round((row.expiresAt - now) / 60_000));
  const number = row.number ?? "";
  await deps.notify(row.userId, {
    kind: "toast",
    type: "warning",
    message: `Your rented number +${number} ends in ${minutes} minutes. Copy any code you still need.`,
  });
  await deliverEvents(deps, row.userId);
  const [user] = await deps.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, row.userId)).limit(1);
  if (user) {
    // A Durable Object has no request to take an origin from, and links never come from one anyway: WEB_CLIENT_URL.
    const sender = deps.upstreams.email();
    await sender
      .send(rentalEndingEmail(user, { number, country: row.countryName, expiresAt: row.expiresAt, link: webLink(configFor(deps.env).webClient, "number/1") }))
      .catch((err: unknown) => {
        log("error", "rental reminder e-mail not delivered", { rentalId: row.id, sender: sender.name, reason: err instanceof Error ? err.message : "unknown" });
      });
  }
  return true;
}
