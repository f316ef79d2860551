import { and, eq, lt } from "drizzle-orm";
import { SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE, type SmsProviderName } from "../../../schema/constants";
import { SMS_CHECK_MESSAGES, type SmsCheckResponse } from "../../../schema/sms";
import type { RefundKeptAnswer } from "../../../schema/admin";
import { koboToNaira, naira } from "../../../schema/money";
import { smsOrders } from "./tables";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { SmsProviderError, type SmsPollResult } from "../../providers/sms/types";
import { enforceBindingLimit, getSetting, type SmsDeps, STOP, type TickResult, wakeAt } from "../kernel";
import { stalledChains } from "./sms-chain";
import { findSmsOrder, orderCodes, ownSmsOrder, type SmsOrderRow } from "./sms-views";
import { readOutcome, upstreamFor } from "./sms-upstream";
import { ANOTHER_CODE_WINDOW_MS, countPoll, giveUpAnotherCode, recordAnotherCode, recordCode, refundKeptOrder, settle } from "./sms-transitions";
import { moveChainOn } from "./sms-orders";
import { pollPlan } from "./poll-plan";
import { batchAlignedWake, batchPoll, readsInBatch } from "./batch-status";

/**
 * A Receive-SMS order's waiting, driven from outside the customer's request: the poller's tick (one per alarm of
 * objects/sms-order-poller.ts), codes the upstream pushes to our webhook, the cron sweep and the operator's settle-now.
 * Ending an order without a code (timeout, upstream error) lives here; the commands are sms-orders.ts.
 */

/** The cron sweep gives a 'pending' order this long (the buy request itself) before refunding it. */
export const PENDING_GRACE_MS = 5 * 60_000;

/** ...and a 'waiting' order its whole polling window plus this, in case its alarm gave up. */
export const WAITING_GRACE_MS = 5 * 60_000;

/** How long past its creation an order may stay unsettled because the upstream's answer cannot be read. */
export const UNREADABLE_OUTCOME_LIMIT_MS = 60 * 60_000;

// ---------------------------------------------------------------------------------------------------------------
// The poller's tick (objects/sms-order-poller.ts)

/**
 * One poll of the upstream. Safe to run twice for the same tick or after a crash: it reads the order first, re-reads
 * it after the upstream call, and counts an attempt with a compare-and-set, so a repeated run polls once more at most
 * and never settles an order twice. Errors other than upstream faults propagate so the alarm is retried.
 */
export async function pollSmsOrderTick(deps: SmsDeps, orderId: string): Promise<TickResult> {
  const db = deps.db;
  const { interval_ms: delayMs, max_attempts: maxAttempts } = await getSetting(db, "sms_poll");
  const done = STOP;
  const later = (): TickResult => wakeAt(deps.clock.now() + delayMs);
  const before = await findSmsOrder(db, orderId);
  if (before?.status === "used" && before.upstreamId) return usedOrderTick(deps, before, delayMs, maxAttempts);
  // A retried alarm after the refund but before the next route was bought: carry on (the claim lets one through).
  if (before?.chainId && (before.status === "timeout" || before.status === "error")) {
    await moveChainOn(deps, before);
    return done;
  }
  if (!before || before.status !== "waiting" || !before.upstreamId) return done;
  if (before.attempts >= maxAttempts) {
    const ended = await endWithoutCode(deps, before, "timeout", "no code within the polling window");
    return ended === "deferred" ? later() : done;
  }

  // Decision 051: which ticks ask the upstream (every one, or a fallback schedule where the upstream pushes codes).
  const plan = pollPlan(deps.env, before, maxAttempts);
  const tick = before.attempts + 1;
  if (!plan.polls(tick)) {
    if (tick >= maxAttempts) {
      // The push fallback's last tick: release without a poll first; a code that came is read and delivered instead.
      const ended = await endWithoutCode(deps, before, "timeout", `no code within the polling window (${maxAttempts} ticks, codes pushed)`);
      return ended === "deferred" ? later() : done;
    }
    // Woken on a tick the plan skips (the plan changed under a waiting order): on to the plan's next tick.
    const upcoming = plan.next(tick);
    await countPoll(deps, before, upcoming - 1);
    return wakeAt(deps.clock.now() + (upcoming - tick) * delayMs);
  }

  const provider = upstreamFor(deps, before);
  // Decision 051: where the upstream answers every active activation of an account in one call, the account's batch
  // reader asks it once per tick for all its orders; an order it does not list asks getStatus itself.
  const batched = plan.kind === "every tick" && readsInBatch(provider);
  let result;
  try {
    result = (batched ? await batchPoll(deps, { ...before, provider: provider.name, upstreamId: before.upstreamId }, delayMs / 2).catch(() => null) : null) ?? (await provider.poll(before.upstreamId));
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "sms poll failed", { orderId, kind: err.kind, detail: err.detail });
    if (!err.transient) {
      const ended = await endWithoutCode(deps, before, "error", `${err.kind}: ${err.detail}`);
      return ended === "deferred" ? later() : done;
    }
    result = null; // a blip: counts as an empty poll, the next tick tries again
  }

  // No re-read of the order after the upstream's answer (one D1 statement per tick, decision 051): each transition
  // below is a compare-and-set on 'waiting', so one that lost a race (a cancel, a push, the sweep) writes nothing.
  if (result?.state === "code") {
    // The next tick completes the number upstream once the another-code window has passed.
    if ((await recordCode(deps, before, result.code, provider, result.text)) && provider.requestAnotherCode) return wakeAt(deps.clock.now() + ANOTHER_CODE_WINDOW_MS);
    return done;
  }
  if (result?.state === "cancelled") {
    const order = await findSmsOrder(db, orderId);
    if (!order || order.status !== "waiting") return done;
    const ended = await endWithoutCode(deps, order, "error", "cancelled upstream");
    return ended === "deferred" ? later() : done;
  }
  const upcoming = plan.next(tick);
  // "Every tick": the count moves by one. The push fallback skips to the tick before its next wake-up, so the row
  // always says how many ticks of the window have passed.
  const to = plan.kind === "every tick" ? tick : upcoming - 1;
  let attempts = await countPoll(deps, before, to);
  if (attempts === null) {
    // The count did not move: the order left 'waiting', or another run of this tick counted first.
    const latest = await findSmsOrder(db, orderId);
    if (!latest || latest.status !== "waiting") return done;
    attempts = Math.max(latest.attempts, to);
  }
  if (attempts >= maxAttempts) {
    const latest = await findSmsOrder(db, orderId);
    if (latest?.status === "waiting" && (await endWithoutCode(deps, latest, "timeout", `no code in ${maxAttempts} polls`)) === "deferred") {
      return later();
    }
    return done;
  }
  const ticks = Math.max(1, upcoming - tick);
  // A batch-read order wakes on the interval's boundaries, with every order of its account: one call serves them all.
  return wakeAt(batched ? batchAlignedWake(deps.clock.now(), delayMs, ticks) : deps.clock.now() + ticks * delayMs);
}

/**
 * A used order's ticks: while another code is awaited, poll for it (a code already stored, e.g. the last one that
 * STATUS_WAIT_RETRY repeats, is not new); give up on it after a polling window or when the number closes. With nothing
 * awaited, complete the number upstream once its window has passed. Never moves money.
 */
async function usedOrderTick(deps: SmsDeps, order: SmsOrderRow, delayMs: number, maxAttempts: number): Promise<TickResult> {
  const db = deps.db;
  const provider = upstreamFor(deps, order);
  const closesAt = order.activationClosesAt ?? 0;
  if (order.anotherCodeRequestedAt !== null) {
    const result = await provider.poll(order.upstreamId!).catch((err: unknown) => {
      if (err instanceof SmsProviderError) return null;
      throw err;
    });
    const latest = await findSmsOrder(db, order.id);
    if (!latest || latest.anotherCodeRequestedAt === null) return wakeAt(Math.max(deps.clock.now() + 1000, closesAt));
    if (result?.state === "code" && !(await orderCodes(db, order.id)).includes(result.code.slice(0, 64))) {
      await recordAnotherCode(deps, latest, result.code, result.text);
      return wakeAt(Math.max(deps.clock.now() + 1000, closesAt));
    }
    const now = deps.clock.now();
    if (now - latest.anotherCodeRequestedAt < delayMs * maxAttempts && now < closesAt) return wakeAt(now + delayMs);
    await giveUpAnotherCode(deps, order.id, latest.anotherCodeRequestedAt);
    log("info", "another code did not arrive", { orderId: order.id });
  }
  const now = deps.clock.now();
  if (now < closesAt) return wakeAt(closesAt);
  await provider.finish(order.upstreamId!).catch(() => undefined);
  return STOP;
}

// ---------------------------------------------------------------------------------------------------------------
// "Check Now" (the spec's original client, issue 27)

/**
 * POST /api/sms/check/:id: the caller's own order (anyone else's is 404), asked of the upstream now instead of at the
 * poller's next tick. A code that is there is stored through the same guarded transition as the tick (sms.code is
 * pushed, one outcome); nothing else changes: an empty or failed check is not one of the poller's attempts and never
 * ends or refunds the order (the server decides outcomes, on its own clock). Each upstream ask counts against the
 * account's check-now throttle (the CHECK_NOW_LIMITER binding, decision 073); an order that already ended answers from
 * our record without asking.
 */
export async function checkSmsOrderNow(deps: SmsDeps, userId: string, orderId: string): Promise<SmsCheckResponse> {
  const order = await ownSmsOrder(deps.db, userId, orderId);
  const answer = (row: SmsOrderRow): SmsCheckResponse | null => {
    if (row.code) return { success: true, sms_code: row.code, message: SMS_CHECK_MESSAGES.received };
    if (row.status === "timeout") return { success: false, message: SMS_TIMEOUT_MESSAGE };
    if (row.status === "error" || row.status === "failed") return { success: false, message: SMS_ERROR_MESSAGE };
    if (row.status === "cancelled") return { success: false, message: SMS_CHECK_MESSAGES.cancelled };
    return null;
  };
  const known = answer(order);
  if (known) return known;
  if (order.status !== "waiting" || !order.upstreamId) return { success: false, message: SMS_CHECK_MESSAGES.waiting };

  await enforceBindingLimit(deps.env, "CHECK_NOW_LIMITER", userId);
  const provider = upstreamFor(deps, order);
  let result: SmsPollResult;
  try {
    result = await provider.poll(order.upstreamId);
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "sms check now failed", { orderId, kind: err.kind, detail: err.detail });
    return { success: false, message: SMS_CHECK_MESSAGES.unreachable };
  }
  if (result.state === "code") {
    const latest = await findSmsOrder(deps.db, orderId);
    if (latest?.status === "waiting") await recordCode(deps, latest, result.code, provider, result.text);
  }
  const after = await findSmsOrder(deps.db, orderId);
  return (after && answer(after)) ?? { success: false, message: SMS_CHECK_MESSAGES.waiting };
}

// ---------------------------------------------------------------------------------------------------------------
// Ending without a code

/**
 * Ends a waiting order without a code (timeout or upstream error): releases the number upstream, then refunds.
 * Returns "deferred" when nothing was settled because the upstream's answer must be read again later.
 *
 * The money when the upstream will not release the number (docs/decisions/014-sms-upstreams-money.md):
 *  - a code the upstream holds wins: the customer gets it and the order keeps its money ('used');
 *  - a final refusal (DaisySMS's ACCESS_READY: "the activation already has its code or no longer exists"; sms-man's
 *    wrong_status) is resolved with getStatus: a code -> 'used'; cancelled or unknown upstream -> refunded (no code
 *    can ever reach the customer); unreadable or still "waiting" -> deferred: refunding now could repay the customer
 *    for a code we were charged for and that the next read delivers. The next tick and the cron sweep look again;
 *    past UNREADABLE_OUTCOME_LIMIT_MS the customer, who never saw a code, is refunded and our loss is logged;
 *  - a refusal that only means "not yet" (EARLY_CANCEL_DENIED) is refunded at once: that loss is ours, never theirs.
 */
async function endWithoutCode(
  deps: SmsDeps,
  order: SmsOrderRow,
  outcome: "timeout" | "error",
  reason: string,
  now = deps.clock.now(),
): Promise<"settled" | "deferred"> {
  const provider = upstreamFor(deps, order);
  if (order.upstreamId) {
    let refusal: { reason: string; final: boolean } | null = null;
    try {
      const released = await provider.cancel(order.upstreamId);
      if (released.outcome === "refused") refusal = { reason: released.reason, final: released.final };
    } catch (err) {
      if (err instanceof SmsProviderError && err.kind === "not_found") refusal = { reason: "not_found", final: true };
      else log("warn", "sms release failed upstream", { orderId: order.id, error: err instanceof Error ? err.message : String(err) });
    }
    if (refusal) {
      const last = await readOutcome(provider, order.upstreamId);
      if (last?.state === "code") {
        await recordCode(deps, order, last.code, provider, last.text);
        return "settled";
      }
      if (refusal.final && last?.state !== "gone") {
        if (now - order.createdAt < UNREADABLE_OUTCOME_LIMIT_MS) {
          log("warn", "sms release refused and the outcome is not readable yet: not settled", { orderId: order.id, reason: refusal.reason });
          return "deferred";
        }
        log("error", "sms outcome never readable upstream: refunding the customer, the upstream may have charged us", {
          orderId: order.id,
          reason: refusal.reason,
        });
      } else if (!refusal.final) {
        // A chain never moves on from a number the upstream still holds (a code could still come to it and would be
        // a second delivery): it keeps polling it and asks again next tick, within the same hour as above.
        if (order.chainId && last?.state !== "gone" && now - order.createdAt < UNREADABLE_OUTCOME_LIMIT_MS) {
          log("warn", "sms release not allowed yet: the chain waits for this number", { orderId: order.id, reason: refusal.reason });
          return "deferred";
        }
        log("warn", "sms number kept upstream after giving up", { orderId: order.id, reason: refusal.reason });
      }
    }
  }
  const current = await findSmsOrder(deps.db, order.id);
  if (current?.status !== "waiting") return "settled";
  // Told in its refund's batch: a lone order's sms.ended; a chain's route's names the next route, bought in the same
  // batch (sms-orders.ts moveChainOn), or says the chain ended.
  if (order.chainId) await moveChainOn(deps, current, { outcome, reason, told: (next) => endedMessage(order.id, outcome, next) });
  else await settle(deps, current, outcome, reason, endedMessage(order.id, outcome, null));
  return "settled";
}

function endedMessage(orderId: string, outcome: "timeout" | "error", next: string | null) {
  return {
    kind: "sms.ended",
    orderId,
    status: outcome,
    refunded: true,
    message: outcome === "timeout" ? SMS_TIMEOUT_MESSAGE : SMS_ERROR_MESSAGE,
    ...(next ? { nextOrderId: next } : {}),
  } as const;
}

// ---------------------------------------------------------------------------------------------------------------
// Codes pushed by the upstream (DaisySMS / SMS-Activate webhooks)

export type PushOutcome = "settled" | "not_yet" | "unknown" | "already_settled";

/**
 * A webhook said an activation got its SMS. The body is never trusted: it only names which of our waiting orders to
 * look at, and the upstream's own getStatus decides (neither DaisySMS nor SMS-Activate documents a signature), through
 * the same guarded transition the poller uses, so a push and a poll racing settle the order once. A forged push for an
 * activation we do not hold costs nothing (no upstream call); one for an activation we hold costs one getStatus.
 * The alarm's polling stays the fallback and the only authority on time-outs.
 */
export async function acceptPushedCode(deps: SmsDeps, provider: SmsProviderName, upstreamId: string, pushedText?: string | null): Promise<PushOutcome> {
  const db = deps.db;
  const [order] = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.provider, provider), eq(smsOrders.upstreamId, upstreamId)))
    .limit(1);
  if (!order) return "unknown";
  if (order.status !== "waiting") return "already_settled";
  const adapter = upstreamFor(deps, order);
  let result: SmsPollResult;
  try {
    result = await adapter.poll(upstreamId);
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "pushed sms code: getStatus failed, the poller will look", { orderId: order.id, kind: err.kind });
    return "not_yet";
  }
  if (result.state !== "code") return "not_yet";
  // The webhook's `text` is shown only when it carries the code the upstream itself confirmed (the push is unsigned:
  // a forger who knows an activation id cannot put words in front of the customer without its code).
  const text = result.text ?? (pushedText && pushedText.includes(result.code) ? pushedText : null);
  return (await recordCode(deps, order, result.code, adapter, text)) ? "settled" : "already_settled";
}

// ---------------------------------------------------------------------------------------------------------------
// The cron backstop and the operator's settle-now

/**
 * Settles orders whose poller gave up or never started: 'waiting' past the polling window (released upstream, then
 * refunded as a timeout) and 'pending' past the buy's grace (refunded as failed). Returns how many it settled.
 */
export async function sweepSmsOrders(deps: SmsDeps, now = deps.clock.now()): Promise<number> {
  const db = deps.db;
  const poll = await getSetting(db, "sms_poll");
  const waitingCutoff = now - (poll.interval_ms * (poll.max_attempts + 1) + WAITING_GRACE_MS);
  const stale = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.status, "waiting"), lt(smsOrders.createdAt, waitingCutoff)))
    .limit(50);
  const stuck = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.status, "pending"), lt(smsOrders.createdAt, now - PENDING_GRACE_MS)))
    .limit(50);
  let settled = 0;
  for (const order of stale) {
    // "deferred" leaves the order waiting: the next sweep asks the upstream again.
    await endWithoutCode(deps, order, "timeout", "settled by the sweep", now);
    if ((await findSmsOrder(db, order.id))?.status !== "waiting") settled += 1;
  }
  for (const order of stuck) {
    if (await settle(deps, order, "failed", "settled by the sweep: the purchase never completed")) settled += 1;
  }
  const resumed = await resumeStalledChains(deps, now);
  if (settled > 0 || resumed > 0) log("info", "sms sweep settled orders", { settled, resumed });
  return settled;
}

/** The sweep's backstop for a move-on that was cut short (a crash between the refund and the next purchase). */
async function resumeStalledChains(deps: SmsDeps, now: number): Promise<number> {
  let moved = 0;
  for (const stalled of await stalledChains(deps.db, now - 60_000)) {
    try {
      const order = await findSmsOrder(deps.db, stalled.orderId);
      if (order && (await moveChainOn(deps, order))) moved += 1;
    } catch (err) {
      // One chain's fault must not stop the sweep's other work; the next run looks again.
      log("error", "sms chain could not move on", { chainId: stalled.chainId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return moved;
}

/**
 * The operator's "settle now" for one stuck order (the console's Orders page): the sweep's own transitions, for one
 * order. A waiting order is released upstream and refunded as a timeout, and a code that arrived meanwhile still wins
 * (endWithoutCode reads it and stores it instead); a pending one never reached the upstream and is refunded as failed.
 * Only once its poller's window has passed, so a live order is never cut short.
 */
export async function settleSmsOrderNow(deps: SmsDeps, orderId: string, now = deps.clock.now()): Promise<{ from: string; status: string; settled: boolean }> {
  const db = deps.db;
  const order = await findSmsOrder(db, orderId);
  if (!order) throw new AppError("NOT_FOUND", "Order not found.");
  const poll = await getSetting(db, "sms_poll");
  const window = poll.interval_ms * poll.max_attempts;
  if (order.status === "waiting" && order.createdAt < now - window) {
    await endWithoutCode(deps, order, "timeout", "settled by an operator");
  } else if (order.status === "pending" && order.createdAt < now - PENDING_GRACE_MS) {
    await settle(deps, order, "failed", "settled by an operator: the purchase never completed");
  } else {
    throw new AppError("INVALID_STATE", order.status === "waiting" || order.status === "pending" ? "This order is still within its polling window." : "This order is already settled.");
  }
  const after = await findSmsOrder(db, orderId);
  return { from: order.status, status: after?.status ?? order.status, settled: after?.status !== order.status };
}

/**
 * An operator refunds a kept order (issue 46): refundKeptOrder (sms-transitions.ts), answered as settle is, plus what
 * the operator must know: a developer's ref share left with the developer (`refShareKept`, naira: the developer's
 * wallet no longer held it, decision 075) and a sentence saying what moved.
 * `walletOpen` says whether the wallet that paid may still receive money (a closed sub-account may not: the resellers
 * room, above this one, answers it through the caller).
 */
export async function refundKeptSmsOrder(deps: SmsDeps, orderId: string, reason: string, walletOpen: (userId: string) => Promise<boolean>): Promise<RefundKeptAnswer> {
  const order = await findSmsOrder(deps.db, orderId);
  if (!order) throw new AppError("NOT_FOUND", "Order not found.");
  if (!(await walletOpen(order.userId))) throw new AppError("INVALID_STATE", "The sub-account that paid for this order is closed: refund its reseller by a manual entry instead.", { status: order.status });
  const { moved, refShareKeptKobo } = await refundKeptOrder(deps, order, reason);
  return { from: order.status, status: moved ? "refunded" : order.status, settled: moved, refShareKept: koboToNaira(refShareKeptKobo), message: refundKeptMessage(order, moved, refShareKeptKobo) };
}

/** The refund's result in the operator's words: what went back, and a developer's share that could not be taken back. */
function refundKeptMessage(order: SmsOrderRow, moved: boolean, refShareKeptKobo: number): string {
  if (!moved) return "Nothing was refunded: the order was refunded already.";
  const amount = (kobo: number) => naira(koboToNaira(kobo));
  const parts = [`Refunded ${amount(order.priceKobo)} to the wallet that paid.`];
  if (order.marginKobo > 0) parts.push(`The reseller's margin (${amount(order.marginKobo)}) was taken back.`);
  if (order.refShareKobo > 0 && refShareKeptKobo === 0) parts.push(`The developer's ref share (${amount(order.refShareKobo)}) was taken back.`);
  if (refShareKeptKobo > 0) parts.push(`The developer's ref share (${amount(refShareKeptKobo)}) was not taken back: their wallet no longer holds it, so it stays our cost.`);
  return parts.join(" ");
}
