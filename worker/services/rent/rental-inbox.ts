import { and, eq, exists, sql } from "drizzle-orm";
import type { RentalDetailResponse } from "../../../schema/rentals";
import { rentalMessages } from "./tables";
import type { Env } from "../../config";
import { log } from "../../lib/log";
import { deliverEvents, move, outboxInsert, runBatch, statements } from "../kernel";
import { reminderDueAt } from "./rental-reminder";
import type { RentalDeps } from "../kernel";
import { upstreamFor } from "./rental-upstream";
import { findRental, ownedRental, rentalMessagesOf, rentalView } from "./rental-views";
import { rental } from "./rental-transitions";

/**
 * A rental's inbox: reading its SMS from the upstream (each stored and announced once), when the watcher looks next,
 * and the calls that wake, re-arm or stop the rental's watcher (objects/rental-watcher.ts).
 */

// D1 allows 100 bound parameters per statement; a message row binds 6.
const INSERT_CHUNK = 12;

async function fingerprintHash(source: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(source));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Reads the rental's SMS upstream and stores the new ones. Each message is stored once (unique fingerprint per rental,
 * ON CONFLICT DO NOTHING), and only rows inserted by this call are announced, so two overlapping polls never store or
 * notify a message twice. Returns how many were new. Upstream failures propagate as RentProviderError.
 */
export async function syncRentalMessages(deps: RentalDeps, rentalId: string): Promise<number> {
  const row = await findRental(deps.db, rentalId);
  if (!row || row.status !== "active" || !row.upstreamId) return 0;
  const list = await upstreamFor(deps, row.userId).getAllSms(row.upstreamId);
  const now = deps.clock.now();
  const values = await Promise.all(
    list.map(async (m) => ({
      rentalId,
      fingerprint: await fingerprintHash(m.fingerprint),
      sender: m.sender.slice(0, 100),
      text: m.text.slice(0, 2000),
      code: m.code ? m.code.slice(0, 32) : null,
      receivedAt: m.receivedAt,
    })),
  );
  // Only messages not stored yet are written, each with its rental.sms event in the same batch (services/kernel/outbox.ts):
  // a poll racing this one finds the row and the event already there (unique fingerprint, unique dedupe key).
  const known = new Set(
    (await deps.db.select({ fingerprint: rentalMessages.fingerprint }).from(rentalMessages).where(eq(rentalMessages.rentalId, rentalId))).map((r) => r.fingerprint),
  );
  const fresh = values.filter((v) => !known.has(v.fingerprint));
  const db = deps.db;
  const chunks = [];
  for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
    chunks.push(db.insert(rentalMessages).values(fresh.slice(i, i + INSERT_CHUNK)).onConflictDoNothing().returning({ id: rentalMessages.id }));
  }
  const events = fresh.map((m) =>
    outboxInsert(
      db,
      { userId: row.userId, dedupe: `rental.sms:${rentalId}:${m.fingerprint}`, message: { kind: "rental.sms", rentalId, sender: m.sender, text: m.text, code: m.code }, at: now },
      exists(db.select({ one: sql`1` }).from(rentalMessages).where(and(eq(rentalMessages.rentalId, rentalId), eq(rentalMessages.fingerprint, m.fingerprint)))),
    ),
  );
  // The count last, so it sees this batch's rows.
  const { messages } = await runBatch(db, {
    messages: chunks.length > 0 ? statements(chunks) : null,
    events: events.length > 0 ? statements(events) : null,
    counted: move(db, rental.inboxRead, rentalId, { rentalId, updatedAt: fresh.length > 0 ? now : row.updatedAt }, now),
  });
  const inserted = messages?.returned ?? 0;
  if (inserted > 0) await deliverEvents(deps, row.userId);
  return inserted;
}

/** A final read before the number goes away; failure only costs messages the customer could not have used anyway. */
export async function finalSync(deps: RentalDeps, rentalId: string): Promise<void> {
  try {
    await syncRentalMessages(deps, rentalId);
  } catch (err) {
    log("warn", "rental final SMS check failed", { rentalId, error: err instanceof Error ? err.message : String(err) });
  }
}

/** How long until the next upstream check: often at first (when codes usually come), then less. */
export function nextCheckDelayMs(ageMs: number): number {
  if (ageMs < 2 * 60_000) return 5_000;
  if (ageMs < 15 * 60_000) return 30_000;
  return 2 * 60_000;
}

/** The next wake-up: the next upstream check, the reminder when it is due sooner, never past the expiry. */
export function nextAlarmAt(row: Parameters<typeof reminderDueAt>[0] & { expiresAt: number }, now: number): number {
  let at = Math.min(now + nextCheckDelayMs(now - row.createdAt), row.expiresAt);
  const remind = reminderDueAt(row);
  if (remind !== null && remind > now) at = Math.min(at, remind);
  return at;
}

function watcher(env: Env, id: string) {
  return env.RENTAL.get(env.RENTAL.idFromName(id));
}

/** Starts (or re-arms, after an extension) the rental's watcher. Idempotent. */
export async function startWatcher(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).start(id);
  } catch (err) {
    // The sweep still expires the rental and the inbox still checks on demand.
    log("error", "rental watcher did not start", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

export async function stopWatcher(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).stop();
  } catch (err) {
    log("warn", "rental watcher did not stop", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

/** On demand, when the customer opens the inbox: the watcher checks upstream unless it just did. */
export async function checkRentalNow(env: Env, id: string): Promise<void> {
  try {
    await watcher(env, id).checkNow(id);
  } catch (err) {
    log("warn", "rental on-demand check failed", { rentalId: id, error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * A rental and its inbox as the customer opens it (the web's GET /api/rentals/:id and the developer API's): an active
 * rental is checked upstream first, so the answer carries what arrived since the watcher's last look.
 */
export async function rentalWithInbox(deps: RentalDeps, userId: string, id: string): Promise<RentalDetailResponse> {
  const before = await ownedRental(deps.db, userId, id);
  if (before.status === "active") await checkRentalNow(deps.env, id);
  const row = before.status === "active" ? await ownedRental(deps.db, userId, id) : before;
  return { rental: rentalView(row, deps.clock.now()), messages: await rentalMessagesOf(deps.db, id) };
}
