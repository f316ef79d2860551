import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { GrammyError, HttpError } from "grammy/web";
import type { Env } from "../../config";
import type { Db } from "../../db/client";
import { log } from "../../lib/log";
import type { TelegramBotApi } from "../../providers/telegram/bot-api";
import { deadLetterInsert, type DeliveryChannels, enqueueDeliveries, LOST_JOB_MS, type Services } from "../kernel";
import { telegramDeliveries, telegramLinks } from "./tables";
import { type BotMessage, eventWords, inlineKeyboard } from "./words";

/**
 * The bot's delivery channel (issue 48, decision 070): what the bot says outside an update (a code, a rental's SMS, a
 * credit, an order's end, "disconnected"). A small unit of two halves, so moving it onto a queue replaces only the
 * second:
 * - fan-out: the outbox's delivery (kernel/outbox.ts, through the DeliveryChannels the container composes) asks
 *   `telegramChannel.fanOut` for one `telegram_deliveries` row per (event, linked chat), inserted in the batch that marks
 *   the event delivered (dedupe key `<event id>:<chat id>`), so an event reaches a chat once however often delivery runs;
 *   `enqueueChatMessage` does the same for the bot's own notices;
 * - sending: `deliverDueTelegram`, run by the chat's delivery job on the queue (kernel/delivery-queue.ts; enqueued after
 *   the batch, re-enqueued by the cron sweep when lost), claims each row with a lease, sends it with sendMessage and marks it sent,
 *   retried with backoff (429's retry_after honoured), dropped when Telegram says the person blocked the bot (403), failed
 *   when Telegram refuses the message itself (400) or after a day. A run that dies between Telegram's answer and the mark
 *   leaves the lease to expire and the row is sent again: Telegram's sendMessage has no idempotency key, so that one
 *   window can repeat a message; nothing else can.
 * The update handler never waits for an SMS: codes and rental messages come only this way.
 */

const RETRY_MS = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000];
const LIFETIME_MS = 24 * 3600_000;
const LEASE_MS = 60_000;
const BATCH = 10;

type DeliveryRow = typeof telegramDeliveries.$inferInsert;

const newId = () => `tgd_${crypto.randomUUID().replaceAll("-", "")}`;

function rowFor(chatId: string, userId: string | null, dedupeKey: string, message: BotMessage, now: number, createdAt = now): DeliveryRow {
  const payload = JSON.stringify({ text: message.text, parse_mode: "HTML", reply_markup: inlineKeyboard(message.keyboard) });
  return { id: newId(), dedupeKey, chatId, userId, payload, status: "pending", attempts: 0, nextAttemptAt: now, createdAt };
}

/** Enqueues the chat's delivery job; a lost one is the sweep's. Never throws. */
export async function kickChat(env: Env, chatId: string): Promise<void> {
  await enqueueDeliveries(env, [{ kind: "telegram", target: chatId }]);
}

/** A dead letter's replay (services/console/dead-letters.ts): the failed message is pending again, as the chat's newest. */
export function reviveTelegramDelivery(db: Db, deliveryId: string, now: number) {
  return db
    .update(telegramDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, createdAt: now, leaseUntil: null })
    .where(and(eq(telegramDeliveries.id, deliveryId), eq(telegramDeliveries.status, "failed")));
}

/**
 * The telegram channel as the kernel's outbox delivery takes it (the container composes it beside issue 47's when the
 * bot is configured). An event of a customer with a linked chat makes one row for that chat, if the bot has words for it.
 */
export function telegramChannel(env: Env, db: Db): DeliveryChannels {
  return {
    async fanOut(event, message, now) {
      const words = eventWords(message, event.createdAt);
      if (!words) return [];
      const [link] = await db.select({ chatId: telegramLinks.chatId }).from(telegramLinks).where(eq(telegramLinks.userId, event.userId)).limit(1);
      if (!link) return [];
      const row = rowFor(link.chatId, event.userId, `${event.id}:${link.chatId}`, words, now, event.createdAt);
      return [db.insert(telegramDeliveries).values(row).onConflictDoNothing({ target: telegramDeliveries.dedupeKey })] as BatchItem<"sqlite">[];
    },
    async kick(userId) {
      const chats = await db
        .selectDistinct({ chatId: telegramDeliveries.chatId })
        .from(telegramDeliveries)
        .where(and(eq(telegramDeliveries.userId, userId), eq(telegramDeliveries.status, "pending")))
        .limit(5)
        .catch(() => []);
      await enqueueDeliveries(env, chats.map((c) => ({ kind: "telegram", target: c.chatId })));
    },
    revive: (kind, deliveryId, now) => (kind === "telegram" ? reviveTelegramDelivery(db, deliveryId, now) : null),
    noneFor: (userId) => sql`NOT EXISTS (SELECT 1 FROM ${telegramLinks} WHERE ${telegramLinks.userId} = ${userId})`,
  };
}

/** Queues one notice of the bot's own (keyed, so writing it twice sends it once) and wakes the chat's sender. */
export async function enqueueChatMessage(services: Pick<Services, "env" | "db" | "clock">, chatId: string, dedupeKey: string, message: BotMessage): Promise<void> {
  await services.db.insert(telegramDeliveries).values(rowFor(chatId, null, dedupeKey, message, services.clock.now())).onConflictDoNothing({ target: telegramDeliveries.dedupeKey });
  await kickChat(services.env, chatId);
}

type Outcome = { status: "sent" } | { status: "dropped" | "failed"; error: string } | { status: "retry"; error: string; afterMs?: number };

async function send(telegram: TelegramBotApi, chatId: string, payload: string): Promise<Outcome> {
  const { text, parse_mode, reply_markup } = JSON.parse(payload) as { text: string; parse_mode: "HTML"; reply_markup?: { inline_keyboard: never[][] } };
  try {
    await telegram.api.sendMessage(chatId, text, { parse_mode, ...(reply_markup ? { reply_markup } : {}), link_preview_options: { is_disabled: true } });
    return { status: "sent" };
  } catch (err) {
    if (err instanceof GrammyError) {
      // https://core.telegram.org/bots/api#making-requests: error_code and description; parameters.retry_after on 429.
      if (err.error_code === 429) return { status: "retry", error: err.description, afterMs: (err.parameters.retry_after ?? 5) * 1000 };
      if (err.error_code === 403) return { status: "dropped", error: err.description };
      if (err.error_code >= 400 && err.error_code < 500) return { status: "failed", error: err.description };
      return { status: "retry", error: err.description };
    }
    if (err instanceof HttpError) return { status: "retry", error: err.message };
    return { status: "retry", error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Sends the chat's due rows, oldest first, one at a time (Telegram keeps a chat's messages in the order it gets them).
 * Returns when to run again (the next due row), or null when nothing is left.
 */
export async function deliverDueTelegram(services: Services, chatId: string): Promise<number | null> {
  const telegram = services.upstreams.telegram();
  const { db } = services;
  if (!telegram) return null;
  const now = services.clock.now();
  const due = await db
    .select()
    .from(telegramDeliveries)
    .where(and(eq(telegramDeliveries.chatId, chatId), eq(telegramDeliveries.status, "pending"), lte(telegramDeliveries.nextAttemptAt, now)))
    .orderBy(asc(telegramDeliveries.createdAt))
    .limit(BATCH);
  let heldUntil = 0;
  for (const row of due) {
    const [claimed] = await db
      .update(telegramDeliveries)
      .set({ leaseUntil: now + LEASE_MS, attempts: sql`${telegramDeliveries.attempts} + 1` })
      .where(and(eq(telegramDeliveries.id, row.id), eq(telegramDeliveries.status, "pending"), or(isNull(telegramDeliveries.leaseUntil), lt(telegramDeliveries.leaseUntil, now))))
      .returning({ attempts: telegramDeliveries.attempts });
    // Another job holds this row: the chat's later rows wait behind it (Telegram keeps a chat's order as it gets them),
    // and this job comes back when that lease ends, not at once.
    if (!claimed) {
      heldUntil = row.leaseUntil ?? now + LEASE_MS;
      break;
    }
    const outcome = await send(telegram, chatId, row.payload);
    const at = services.clock.now();
    if (outcome.status === "sent") {
      await db.update(telegramDeliveries).set({ status: "sent", sentAt: at, leaseUntil: null, lastError: null }).where(eq(telegramDeliveries.id, row.id));
      continue;
    }
    const expired = at - row.createdAt > LIFETIME_MS || claimed.attempts > RETRY_MS.length;
    const status = outcome.status === "retry" ? (expired ? "failed" : "pending") : outcome.status;
    const wait = outcome.status === "retry" ? (outcome.afterMs ?? RETRY_MS[Math.min(claimed.attempts - 1, RETRY_MS.length - 1)]) : 0;
    const mark = db.update(telegramDeliveries).set({ status, leaseUntil: null, lastError: outcome.error.slice(0, 300), nextAttemptAt: at + wait }).where(eq(telegramDeliveries.id, row.id));
    // A message given up (not one the person's block dropped) is a dead letter the operator may replay.
    if (status === "failed") await db.batch([mark, deadLetterInsert(db, { kind: "telegram", target: chatId, deliveryId: row.id, reason: outcome.error, attempts: claimed.attempts }, at)]);
    else await mark;
    if (status !== "pending") log("warn", "telegram message not delivered", { chatId, status, error: outcome.error.slice(0, 200) });
    // A 429 holds the whole chat: the rest waits for the same moment.
    if (outcome.status === "retry") break;
  }
  const [next] = await db
    .select({ at: telegramDeliveries.nextAttemptAt })
    .from(telegramDeliveries)
    .where(and(eq(telegramDeliveries.chatId, chatId), eq(telegramDeliveries.status, "pending")))
    .orderBy(asc(telegramDeliveries.nextAttemptAt))
    .limit(1);
  return next ? Math.max(next.at, heldUntil, services.clock.now()) : null;
}

/** The cron sweep: re-enqueues every chat with a row still due LOST_JOB_MS after its moment (its job was lost), forgets sent rows after 30 days. */
export async function sweepTelegramDeliveries(services: Services): Promise<number> {
  const now = services.clock.now();
  const chats = await services.db
    .selectDistinct({ chatId: telegramDeliveries.chatId })
    .from(telegramDeliveries)
    .where(and(eq(telegramDeliveries.status, "pending"), lte(telegramDeliveries.nextAttemptAt, now - LOST_JOB_MS)))
    .limit(200);
  await enqueueDeliveries(services.env, chats.map((c) => ({ kind: "telegram", target: c.chatId })));
  await services.db.delete(telegramDeliveries).where(and(sql`${telegramDeliveries.status} <> 'pending'`, lt(telegramDeliveries.createdAt, now - 30 * 86_400_000)));
  return chats.length;
}

