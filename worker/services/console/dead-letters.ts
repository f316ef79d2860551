import { and, desc, eq, exists, isNull, sql } from "drizzle-orm";
import type { DeadLetterView } from "../../../schema/admin";
import type { Env } from "../../config";
import { auditInsert } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { deliveryDeadLetters, type DeliveryChannels, type DeliveryKind, enqueueDeliveries, reviveWebhookEvent, rowsOf, runBatch, statement } from "../kernel";

/**
 * The console's dead letters (issue 44, decision 073): deliveries given up (kernel/delivery-queue.ts records them) and
 * their replay, audited like every operator action (decision 013).
 */

function view(row: typeof deliveryDeadLetters.$inferSelect): DeadLetterView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: row.id,
    kind: row.kind as DeliveryKind,
    target: row.target,
    delivery_id: row.deliveryId,
    reason: row.reason,
    attempts: row.attempts,
    created_at: iso(row.createdAt)!,
    replayed_at: iso(row.replayedAt),
    replayed_by: row.replayedBy,
  };
}

/** The console's list: the newest 100 not replayed, then the newest replayed ones (a short history). */
export async function listDeadLetters(db: Db): Promise<DeadLetterView[]> {
  const rows = await db
    .select()
    .from(deliveryDeadLetters)
    .orderBy(sql`${deliveryDeadLetters.replayedAt} IS NOT NULL`, desc(deliveryDeadLetters.createdAt))
    .limit(100);
  return rows.map(view);
}

/**
 * The operator replays a dead letter: in one batch the failed row is made pending again (fresh attempts), the letter is
 * marked replayed by this operator, and the audit row is written; then its job is enqueued (lost, the sweep re-enqueues
 * the pending row). A letter is replayed once.
 */
export async function replayDeadLetter(
  deps: { env: Env; db: Db; channels: Pick<DeliveryChannels, "revive"> },
  operator: { email: string },
  id: string,
  reason: string,
  now: number,
): Promise<DeadLetterView> {
  const { db } = deps;
  const [letter] = await db.select().from(deliveryDeadLetters).where(eq(deliveryDeadLetters.id, id)).limit(1);
  if (!letter) throw new AppError("NOT_FOUND", "Dead letter not found.");
  if (letter.replayedAt !== null) throw new AppError("INVALID_STATE", "This dead letter was already replayed.");
  const kind = letter.kind as DeliveryKind;
  // The failed row made pending again by the room that owns it (a developer webhook's here, a channel's by its room).
  const revive = letter.deliveryId === null ? null : kind === "webhook" ? reviveWebhookEvent(db, letter.deliveryId, now) : deps.channels.revive(kind, letter.deliveryId, now);
  const replayedNow = exists(db.select({ one: sql`1` }).from(deliveryDeadLetters).where(and(eq(deliveryDeadLetters.id, id), eq(deliveryDeadLetters.replayedAt, now))));
  const { marked } = await runBatch(db, {
    marked: rowsOf(
      db
        .update(deliveryDeadLetters)
        .set({ replayedAt: now, replayedBy: operator.email })
        .where(and(eq(deliveryDeadLetters.id, id), isNull(deliveryDeadLetters.replayedAt)))
        .returning(),
    ),
    revive: revive ? statement(revive) : null,
    audit: statement(
      auditInsert(
        db,
        { actor: operator.email, action: "delivery.dead_letter.replay", detail: { id, kind, target: letter.target, delivery_id: letter.deliveryId }, reason, subject: `dead_letter:${id}`, onlyIf: replayedNow },
        now,
      ),
    ),
  });
  const [row] = marked;
  if (!row) throw new AppError("INVALID_STATE", "This dead letter was already replayed.");
  await enqueueDeliveries(deps.env, [{ kind, target: letter.target }]);
  return view(row);
}
