import { and, asc, eq, lt, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { GrammyError, HttpError } from "grammy/web";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Env } from "../../config";
import type { Db } from "../../db/client";
import { log } from "../../lib/log";
import type { TelegramBotApi } from "../../providers/telegram/bot-api";
import { deadLetterInsert, type DeliveryChannels, enqueueDeliveries, LOST_JOB_MS, type Services } from "../kernel";
import { forwardsToTelegram } from "../notifications";
import { telegramDeliveries, telegramLinks } from "./tables";
import { type BotMessage, eventWords, inlineKeyboard } from "./words";

/**
 * The bot's delivery channel (issue 48, decision 070): what the bot says outside an update (a code, a rental's SMS, a
 * credit, an order's end, "disconnected"). A small unit of two halves, so moving it onto a queue replaces only the
 * second:
 * - fan-out: the outbox's delivery (kernel/outbox.ts, through the DeliveryChannels the container composes) asks
 *   `telegramChannel.fanOut` for one `telegram_deliveries` row per (event, linked chat), inserted in the batch that marks
 *   the event delivered (dedupe key `<event id>:<chat id>`), so an event reaches a chat once however often delivery runs;
 *   a rental's messages and reminders only when that rental forwards to Telegram (issue 47's per-rental choice, the
 *   notifications room's `forwardsToTelegram`); `enqueueChatMessage` does the same for the bot's own notices;
 * - sending: `deliverDueTelegram`, run by the chat's delivery job on the queue (kernel/delivery-queue.ts, decision 073;
 *   enqueued after the batch, re-enqueued by the cron sweep when lost), claims each row (pending -> sending, a compare-and-set) just before
 *   sendMessage and records Telegram's message_id with `sent`; retried with backoff when Telegram answers that it did
 *   not send it (429's retry_after honoured, 5xx) or the request failed on the network, dropped when the person blocked
 *   the bot (403), failed when Telegram refuses the message itself (400) or after a day.
 * Once per event and chat: sendMessage has no idempotency key, so a row is sent only by the run that claimed it, and a
 * row a dead run left in `sending` (it died between its claim and recording Telegram's answer, so Telegram may have
 * shown it) is marked failed, never sent again (`abandonInterruptedSends`). What remains: that one interrupted message
 * may be lost rather than repeated (the code is still in the app and in Orders), and a network error after Telegram
 * received the request but before its answer arrived is retried, so it can repeat then.
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

/** The events that are rental forwarding (a rental's new SMS, its renewal reminder, "ends in about an hour"). */
function forwardedRentalOf(message: RealtimeMessage): string | null {
  return message.kind === "rental.sms" || message.kind === "rental.renewing" || message.kind === "rental.ending" ? message.rentalId : null;
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
      // A rental's SMS and reminders follow that rental's forwarding choice (its own, else Settings' default).
      const rentalId = forwardedRentalOf(message);
      if (rentalId && !(await forwardsToTelegram(db, event.userId, rentalId))) return [];
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

type Outcome = { status: "sent"; messageId: number } | { status: "dropped" | "failed"; error: string } | { status: "retry"; error: string; afterMs?: number };

async function send(telegram: TelegramBotApi, chatId: string, payload: string): Promise<Outcome> {
  const { text, parse_mode, reply_markup } = JSON.parse(payload) as { text: string; parse_mode: "HTML"; reply_markup?: { inline_keyboard: never[][] } };
  try {
    const sent = await telegram.api.sendMessage(chatId, text, { parse_mode, ...(reply_markup ? { reply_markup } : {}), link_preview_options: { is_disabled: true } });
    return { status: "sent", messageId: sent.message_id };
  } catch (err) {
    if (err instanceof GrammyError) {
      // https://core.telegram.org/bots/api#making-requests: error_code and description; parameters.retry_after on 429.
      // An answer with ok:false means Telegram did not send the message, so sending it again cannot repeat it.
      if (err.error_code === 429) return { status: "retry", error: err.description, afterMs: (err.parameters.retry_after ?? 5) * 1000 };
      if (err.error_code === 403) return { status: "dropped", error: err.description };
      if (err.error_code >= 400 && err.error_code < 500) return { status: "failed", error: err.description };
      return { status: "retry", error: err.description };
    }
    // The request failed on the network (most often before Telegram had it: DNS, connect, TLS): tried again.
    if (err instanceof HttpError) return { status: "retry", error: err.message };
    return { status: "retry", error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Rows a run claimed and never recorded (it died between its claim and Telegram's answer): Telegram may have shown the
 * message, so it is given up, not sent again. Returns how many.
 */
async function abandonInterruptedSends(db: Services["db"], now: number, chatId?: string): Promise<number> {
  const rows = await db
    .update(telegramDeliveries)
    .set({ status: "failed", leaseUntil: null, lastError: "interrupted during sendMessage: not sent again, since Telegram may have shown it" })
    .where(and(eq(telegramDeliveries.status, "sending"), lt(telegramDeliveries.leaseUntil, now), chatId === undefined ? undefined : eq(telegramDeliveries.chatId, chatId)))
    .returning({ id: telegramDeliveries.id, chatId: telegramDeliveries.chatId });
  for (const row of rows) log("warn", "telegram message interrupted mid-send, not repeated", { chatId: row.chatId, deliveryId: row.id });
  return rows.length;
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
  await abandonInterruptedSends(db, now, chatId);
  const due = await db
    .select()
    .from(telegramDeliveries)
    .where(and(eq(telegramDeliveries.chatId, chatId), eq(telegramDeliveries.status, "pending"), lte(telegramDeliveries.nextAttemptAt, now)))
    .orderBy(asc(telegramDeliveries.createdAt))
    .limit(BATCH);
  let heldUntil = 0;
  for (const row of due) {
    // The claim: only this run may send the row, and only once (pending -> sending by a compare-and-set).
    const [claimed] = await db
      .update(telegramDeliveries)
      .set({ status: "sending", leaseUntil: now + LEASE_MS, attempts: sql`${telegramDeliveries.attempts} + 1` })
      .where(and(eq(telegramDeliveries.id, row.id), eq(telegramDeliveries.status, "pending")))
      .returning({ attempts: telegramDeliveries.attempts });
    // Another job holds this row: the chat's later rows wait behind it (Telegram keeps a chat's order as it gets them),
    // and this job comes back when that lease ends, not at once.
    if (!claimed) {
      heldUntil = row.leaseUntil ?? now + LEASE_MS;
      break;
    }
    const outcome = await send(telegram, chatId, row.payload);
    const at = services.clock.now();
    const mine = and(eq(telegramDeliveries.id, row.id), eq(telegramDeliveries.status, "sending"));
    if (outcome.status === "sent") {
      await db.update(telegramDeliveries).set({ status: "sent", sentAt: at, messageId: outcome.messageId, leaseUntil: null, lastError: null }).where(mine);
      continue;
    }
    const expired = at - row.createdAt > LIFETIME_MS || claimed.attempts > RETRY_MS.length;
    const status = outcome.status === "retry" ? (expired ? "failed" : "pending") : outcome.status;
    const wait = outcome.status === "retry" ? (outcome.afterMs ?? RETRY_MS[Math.min(claimed.attempts - 1, RETRY_MS.length - 1)]) : 0;
    const mark = db.update(telegramDeliveries).set({ status, leaseUntil: null, lastError: outcome.error.slice(0, 300), nextAttemptAt: at + wait }).where(mine);
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

/**
 * The cron sweep: gives up rows a dead run left mid-send, re-enqueues every chat with a row still due LOST_JOB_MS after
 * its moment (its job was lost), forgets finished rows after 30 days.
 */
export async function sweepTelegramDeliveries(services: Services): Promise<number> {
  const now = services.clock.now();
  await abandonInterruptedSends(services.db, now);
  const chats = await services.db
    .selectDistinct({ chatId: telegramDeliveries.chatId })
    .from(telegramDeliveries)
    .where(and(eq(telegramDeliveries.status, "pending"), lte(telegramDeliveries.nextAttemptAt, now - LOST_JOB_MS)))
    .limit(200);
  await enqueueDeliveries(services.env, chats.map((c) => ({ kind: "telegram", target: c.chatId })));
  await services.db.delete(telegramDeliveries).where(and(sql`${telegramDeliveries.status} NOT IN ('pending', 'sending')`, lt(telegramDeliveries.createdAt, now - 30 * 86_400_000)));
  return chats.length;
}

