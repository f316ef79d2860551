import Bowser from "bowser";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { knownDevices } from "./tables";
import { sha256Hex } from "./password-reset";
import type { SessionDevice } from "./sessions";

/** A User-Agent as a person reads it: "Chrome on Windows". Bowser (a small, well-kept parser) does the parsing. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; os: string | null; label: string } {
  if (!userAgent) return { browser: null, os: null, label: "Unknown device" };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name || null;
  const os = parsed.os.name || null;
  const label = browser && os ? `${browser} on ${os}` : (browser ?? os ?? "Unknown device");
  return { browser, os, label };
}

/** Where a session signed in from, as Settings shows it: "Lagos, NG", "NG", or null when Cloudflare did not say. */
export function describePlace(device: Pick<SessionDevice, "country" | "city">): string | null {
  if (device.city && device.country) return `${device.city}, ${device.country}`;
  return device.country ?? null;
}

/**
 * Records the device (browser, OS and country: no cookie ties a browser to an account here) and says whether it is new
 * for this user. One atomic insert: two sign-ins racing from the same new device report it once.
 */
export async function rememberDevice(db: Db, userId: string, device: SessionDevice, now: number): Promise<boolean> {
  const { browser, os } = describeUserAgent(device.userAgent);
  const deviceHash = await sha256Hex([browser ?? "", os ?? "", device.country ?? ""].join("|"));
  const inserted = await db
    .insert(knownDevices)
    .values({ userId, deviceHash, firstSeenAt: now })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  return inserted.length > 0;
}

/**
 * When the customer last signed in from a device new to the account (issue 45: a new device starts the cash-out
 * cooling period), or null when every sign-in was from the device they signed up on.
 */
export async function lastNewDeviceAt(db: Db, userId: string): Promise<number | null> {
  const rows = await db
    .select({ firstSeenAt: knownDevices.firstSeenAt })
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .orderBy(desc(knownDevices.firstSeenAt))
    .limit(2);
  // The first device is where the account began: only a second one is "new".
  return rows.length >= 2 ? (rows[0]?.firstSeenAt ?? null) : null;
}
