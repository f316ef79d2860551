import { and, desc, eq, gt, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { TELEGRAM_ACTION_KINDS, telegramActions } from "./tables";

/**
 * Confirm buttons kept on the server (issue 48's tampered callback data): a money action's confirm step writes one row
 * holding exactly what it stated (the service, the price, the rental, the amount), and its buttons carry only the row's
 * random id. Pressing "Confirm" spends the row once, for the chat and account that made it; a forged, stale, spent or
 * other chat's id finds nothing. The id is 16 random base64url characters (96 bits): not guessable, and within
 * callback_data's 64 bytes (https://core.telegram.org/bots/api#inlinekeyboardbutton).
 */

export type ActionKind = (typeof TELEGRAM_ACTION_KINDS)[number];
export type ActionRow = typeof telegramActions.$inferSelect;

/** A confirm step lasts this long: after it, the customer starts again (the price may have moved). */
export const ACTION_TTL_MS = 10 * 60 * 1000;

/** Kinds that spend the wallet: above the setting's threshold they need a fresh confirmation (step-up or TOTP). */
export const SPENDING_KINDS: ReadonlySet<ActionKind> = new Set(["buy", "use_again", "rent", "extend", "auto_renew"]);

function actionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

export async function createAction(db: Db, a: { chatId: string; userId: string; kind: ActionKind; payload: unknown; amountKobo: number }, now: number): Promise<ActionRow> {
  const row: ActionRow = {
    id: actionId(),
    chatId: a.chatId,
    userId: a.userId,
    kind: a.kind,
    payload: JSON.stringify(a.payload),
    amountKobo: a.amountKobo,
    status: "open",
    createdAt: now,
    expiresAt: now + ACTION_TTL_MS,
  };
  await db.insert(telegramActions).values(row);
  return row;
}

/** The chat's own live action with this id (open or waiting for its code), else null. */
export async function liveAction(db: Db, id: string, chatId: string, userId: string, now: number): Promise<ActionRow | null> {
  const [row] = await db
    .select()
    .from(telegramActions)
    .where(
      and(
        eq(telegramActions.id, id),
        eq(telegramActions.chatId, chatId),
        eq(telegramActions.userId, userId),
        inArray(telegramActions.status, ["open", "awaiting_code"]),
        gt(telegramActions.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The chat's latest action waiting for a TOTP code, if any. */
export async function actionAwaitingCode(db: Db, chatId: string, userId: string, now: number): Promise<ActionRow | null> {
  const [row] = await db
    .select()
    .from(telegramActions)
    .where(and(eq(telegramActions.chatId, chatId), eq(telegramActions.userId, userId), eq(telegramActions.status, "awaiting_code"), gt(telegramActions.expiresAt, now)))
    .orderBy(desc(telegramActions.createdAt))
    .limit(1);
  return row ?? null;
}

export async function markAwaitingCode(db: Db, id: string): Promise<void> {
  await db.update(telegramActions).set({ status: "awaiting_code" }).where(and(eq(telegramActions.id, id), eq(telegramActions.status, "open")));
}

/**
 * Spends the action: one compare-and-set (open or awaiting_code -> done, not expired), so two presses of Confirm, a
 * replayed update or a press racing a code run it once. True when this call spent it.
 */
export async function spendAction(db: Db, row: ActionRow, now: number): Promise<boolean> {
  const moved = await db
    .update(telegramActions)
    .set({ status: "done" })
    .where(and(eq(telegramActions.id, row.id), eq(telegramActions.chatId, row.chatId), inArray(telegramActions.status, ["open", "awaiting_code"]), gt(telegramActions.expiresAt, now)))
    .returning({ id: telegramActions.id });
  return moved.length > 0;
}

export async function dropAction(db: Db, id: string, chatId: string): Promise<void> {
  await db.update(telegramActions).set({ status: "cancelled" }).where(and(eq(telegramActions.id, id), eq(telegramActions.chatId, chatId), inArray(telegramActions.status, ["open", "awaiting_code"])));
}

/** The sweep forgets actions a day after they expired. */
export async function purgeActions(db: Db, now: number): Promise<void> {
  await db.delete(telegramActions).where(lt(telegramActions.expiresAt, now - 86_400_000));
}
