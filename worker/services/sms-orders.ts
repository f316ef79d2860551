import { and, asc, desc, eq, exists, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../schema/money";
import { MISSING_SERVICE_OR_COUNTRY, SMS_CANCELLED_MESSAGE, type OrderRow, type SmsAnotherCodeResponse, type SmsCancelResponse, type SmsGetNumberInput, type SmsGetNumberResponse, type SmsGetNumbersInput, type SmsGetNumbersResponse, type SmsRefundStateResponse, type SmsStatusResponse } from "../../schema/sms";
import { REFUNDED_SMS_STATUSES, SMS_ERROR_MESSAGE, SMS_ERROR_TEXT, SMS_TIMEOUT_MESSAGE, SMS_TIMEOUT_TEXT, type SmsProviderName } from "../../schema/constants";
import { smsProviderSchema } from "../../schema/sms";
import type { Db } from "../db/client";
import { rowAsSelect } from "../db/insert-select";
import { smsChains, smsOrderCodes, smsOrders, users } from "../db/tables";
import type { ErrorCode } from "../../schema/errors";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import type { SignedInUser } from "./sessions";
import { SmsProviderError, type SmsActivation, type SmsFaultKind, type SmsPollResult, type SmsProvider } from "../providers/sms/types";
import { asInsufficientBalance, guardedLedgerInsert } from "./ledger";
import type { SmsDeps } from "./deps";
import { assertNotAboveShown, chargedBelowShown, pricingContext, smsPriceKobo } from "./pricing";
import { envForUser } from "./sandbox-accounts";
import { getSetting } from "./settings";
import { clearSmsCatalogueCache, findSmsOffer } from "./sms-catalogue";
import { costLimitInBatch, enforceCostLimit } from "./rate-limit";
import { chainOrders, chainStateFor, endChain, newChainValues, nextRoutes, readChain, routeKey, stalledChains, type NextRoute } from "./sms-chain";
import type { TickResult } from "./tick";

/**
 * The life of a Receive-SMS order, with money moved only through the ledger:
 *   buy:    [order row 'pending' + debit buy:<id>] in one batch, then the upstream is asked;
 *           a refusal -> [status 'failed' + refund:<id>] at once.
 *   poll:   the order's Durable Object calls pollSmsOrderTick every sms_poll.interval_ms.
 *   end:    every transition out of 'waiting' is a conditional UPDATE (WHERE status = 'waiting'), batched with a refund
 *           that is only written when the order now holds that refunded status. So an order has exactly one outcome,
 *           at most one refund, and none when the code came ('used' is final and keeps the money).
 */

type SmsOrder = typeof smsOrders.$inferSelect;
type RefundedStatus = (typeof REFUNDED_SMS_STATUSES)[number];

const REFUNDED = new Set<string>(REFUNDED_SMS_STATUSES);

/** The cron sweep gives a 'pending' order this long (the buy request itself) before refunding it. */
export const PENDING_GRACE_MS = 5 * 60_000;
/** ...and a 'waiting' order its whole polling window plus this, in case its alarm gave up. */
export const WAITING_GRACE_MS = 5 * 60_000;
/**
 * After its first code a number stays open upstream this long, so the customer can "request another code"
 * (SMS-Activate setStatus 3); then the poller completes it upstream (setStatus 6). SMS-Activate activations live
 * about 20 minutes in all, so 10 minutes after the code fits inside every upstream's window.
 */
export const ANOTHER_CODE_WINDOW_MS = 10 * 60_000;

function purchaseNote(order: Pick<SmsOrder, "serviceName" | "countryName">): string {
  return `${order.serviceName} number (${order.countryName})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Buying

export async function buySmsNumber(deps: SmsDeps, user: SignedInUser, input: SmsGetNumberInput): Promise<SmsGetNumberResponse> {
  // A sandbox account (test API key) buys from the sandbox simulators whatever PROVIDERS says (its prices too).
  const env = envForUser(deps.env, user.id);
  const country = input.country ?? "";
  const service = input.service ?? "";
  if (!country || !service) throw new AppError("VALIDATION_FAILED", MISSING_SERVICE_OR_COUNTRY);
  const providerName = input.provider;
  const db = deps.db;

  const { offer, countryName } = await findSmsOffer(env, providerName, country, service);
  const priceKobo = smsPriceKobo(offer.costUsd, await pricingContext(db, user.totalDepositedKobo));
  // The customer's own ceiling comes first: above it nothing is charged, whatever was shown.
  if (input.max_price !== undefined && priceKobo > nairaToKobo(input.max_price)) {
    throw new AppError(
      "PRICE_CHANGED",
      `The price is now ₦${koboToNaira(priceKobo).toFixed(2)}, above your maximum of ₦${input.max_price.toFixed(2)}. Nothing was charged.`,
      { price: koboToNaira(priceKobo), max_price: input.max_price },
    );
  }
  assertNotAboveShown(priceKobo, input.price);

  const orderId = crypto.randomUUID();
  const now = deps.clock.now();
  const chained = input.next_route !== undefined;
  const order = newOrder({ id: orderId, userId: user.id, provider: providerName, countryId: country, countryName, offer, priceKobo, now }, chained ? { id: orderId, step: 1 } : null);
  // The per-account cost limit (issue 12 hole 6) is counted in this batch, not a round trip of its own (decision 031);
  // on the customer's own account (a sandbox key's test account is counted as itself), before the upstream is asked.
  const limit = costLimitInBatch(db, user.id, "smsBuy", now);
  const orderWritten = exists(db.select({ one: sql`1` }).from(smsOrders).where(eq(smsOrders.id, orderId)));
  let counted, inserted;
  try {
    // One atomic batch: the counted hit; the order row only within the limit and while the wallet holds the price;
    // the chain (when the customer ticked "try another number") and the debit only if that row was written. A refusal
    // (limit or wallet) writes no order, chain or ledger row, yet keeps the hit counted like enforceCostLimit would.
    [counted, inserted] = await db.batch([
      limit.count,
      db.insert(smsOrders).select(
        db
          .select(rowAsSelect(smsOrders, order))
          .from(users)
          .where(and(eq(users.id, user.id), gte(users.balanceKobo, priceKobo), limit.within)),
      ),
      ...(input.next_route
        ? [db.insert(smsChains).select(db.select(rowAsSelect(smsChains, newChainValues(orderId, user.id, offer.name, input.next_route, now))).from(smsOrders).where(eq(smsOrders.id, orderId)))]
        : []),
      guardedLedgerInsert(db, { userId: user.id, key: `buy:${orderId}`, amountKobo: -priceKobo, kind: "buy", note: purchaseNote(order), ref: orderId }, orderWritten),
    ]);
  } catch (err) {
    // The balance CHECK stays the backstop of the guard above.
    throw asInsufficientBalance(err);
  }
  limit.enforce(counted);
  if ((inserted.meta.changes ?? 0) === 0) throw new AppError("INSUFFICIENT_BALANCE", "Insufficient balance");

  let activation: SmsActivation;
  try {
    activation = await reserveNumber(deps, order, offer);
  } catch (err) {
    // The customer saw this purchase refused: a chain behind it must never buy a number they do not know about.
    if (chained) await endChain(deps, orderId, "ended", "the first number could not be bought");
    throw err;
  }

  return {
    phone: { request_id: orderId, number: activation.number },
    // reference_code: the order id, as /api/orders names it, so a client can poll and cancel with it (issue 19).
    table: { purchased_number: activation.number, sms: null, reference_code: orderId },
    debitRef: `buy:${orderId}`,
    price: koboToNaira(priceKobo),
    ...chargedBelowShown(priceKobo, input.price),
  };
}

type OfferForSale = Awaited<ReturnType<typeof findSmsOffer>>["offer"];

function newOrder(
  o: { id: string; userId: string; provider: SmsProviderName; countryId: string; countryName: string; offer: OfferForSale; priceKobo: number; now: number },
  chain: { id: string; step: number } | null,
): SmsOrder {
  return {
    id: o.id,
    userId: o.userId,
    provider: o.provider,
    countryId: o.countryId,
    countryName: o.countryName,
    serviceId: o.offer.serviceId,
    serviceName: o.offer.name,
    priceKobo: o.priceKobo,
    upstreamId: null,
    number: null,
    code: null,
    anotherCodeRequestedAt: null,
    activationClosesAt: null,
    status: "pending",
    attempts: 0,
    failureReason: null,
    chainId: chain?.id ?? null,
    chainStep: chain?.step ?? null,
    createdAt: o.now,
    updatedAt: o.now,
  };
}

/**
 * Asks the upstream for the number of an order already written 'pending' with its debit, and starts its poller. A
 * refusal refunds the order at once ('failed') and throws the AppError the customer is shown.
 */
async function reserveNumber(deps: SmsDeps, order: SmsOrder, offer: OfferForSale): Promise<SmsActivation> {
  const orderId = order.id;
  const db = deps.db;
  const provider = providerOf(deps, order);
  let activation;
  try {
    // The ceiling is the upstream's own figure in its own currency: the price we quoted, never a converted guess.
    activation = await provider.buy({ countryId: order.countryId, serviceId: order.serviceId, maxCost: { amount: offer.cost, currency: offer.currency } });
  } catch (err) {
    const reason = err instanceof SmsProviderError ? err.message : "The provider could not be reached. Please try again shortly.";
    await settle(deps, order, "failed", "pending", err instanceof SmsProviderError ? `${err.kind}: ${err.detail}` : String(err));
    log("warn", "sms purchase refused upstream", {
      orderId,
      provider: order.provider,
      kind: err instanceof SmsProviderError ? err.kind : "exception",
      detail: err instanceof SmsProviderError ? err.detail : err instanceof Error ? err.message : String(err),
    });
    if (!(err instanceof SmsProviderError)) throw err;
    // A price that moved upstream means our cached list is stale: forget it so the next view shows the new one.
    if (err.kind === "price_exceeded" || err.kind === "no_numbers") clearSmsCatalogueCache();
    throw new AppError(buyFaultCode(err.kind), reason, { phone: { error_msg: reason }, refunded: true, debitRef: `buy:${orderId}` });
  }

  const [waiting] = await db
    .update(smsOrders)
    .set({ status: "waiting", upstreamId: activation.upstreamId, number: activation.number, updatedAt: deps.clock.now() })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "pending")))
    .returning({ id: smsOrders.id });
  if (!waiting) {
    // Only the sweep moves a 'pending' order (after minutes): it was refunded already, so the number goes back too.
    await provider.cancel(activation.upstreamId).catch(() => undefined);
    throw new AppError("INVALID_STATE", "This order changed while it was being placed. Please check your orders.");
  }

  try {
    const interval = (await getSetting(db, "sms_poll")).interval_ms;
    await pollerFor(deps, orderId).start(orderId, interval);
  } catch (err) {
    // The cron sweep settles an order whose poller never started; the customer is refunded then at the latest.
    log("error", "sms poller did not start", { orderId, error: err instanceof Error ? err.message : String(err) });
  }
  return activation;
}

/**
 * Several numbers for one service at once: each is bought through buySmsNumber, one after another, so each is its own
 * order with its own debit and its own refund, and the customer's price and ceiling hold for every one. Buying stops
 * at the first refusal (no stock, balance, price above the ceiling): what was bought stays bought and is returned with
 * the reason; a refusal of the very first number is the ordinary error.
 */
export async function buySmsNumbers(deps: SmsDeps, user: SignedInUser, input: SmsGetNumbersInput): Promise<SmsGetNumbersResponse> {
  const { quantity, ...one } = input;
  const orders: SmsGetNumberResponse[] = [];
  for (let i = 0; i < quantity; i += 1) {
    try {
      orders.push(await buySmsNumber(deps, user, one));
    } catch (err) {
      if (orders.length === 0 || !(err instanceof AppError)) throw err;
      return { orders, requested: quantity, error: { code: err.code, message: err.message } };
    }
  }
  return { orders, requested: quantity, error: null };
}

function buyFaultCode(kind: SmsFaultKind): ErrorCode {
  switch (kind) {
    case "no_numbers":
      return "NO_NUMBERS";
    case "timeout":
      return "UPSTREAM_TIMEOUT";
    case "price_exceeded":
      return "PRICE_CHANGED";
    case "bad_service":
      return "UNPROCESSABLE";
    default:
      return "UPSTREAM_UNAVAILABLE";
  }
}

function pollerFor(deps: SmsDeps, orderId: string) {
  return deps.env.SMS_ORDER.get(deps.env.SMS_ORDER.idFromName(orderId));
}

// ---------------------------------------------------------------------------------------------------------------
// "Code or next route" (docs/decisions/022-code-or-next-route.md; the chain's rows and choices: services/sms-chain.ts)

/**
 * After `from` (a route of a chain) ended refunded without a code: buys the next route and returns its order id, or
 * null when the chain does not move on (it was cancelled, already moved on, has no route left within the cap, or the
 * wallet is short: then the chain ends). A route the upstream refuses at once ('failed', refunded) is passed over for
 * the one after it. Safe to run twice: the guarded batch in placeNextRoute lets one caller through.
 */
export async function moveChainOn(deps: SmsDeps, from: SmsOrder): Promise<string | null> {
  const db = deps.db;
  let current = from;
  for (;;) {
    if (!current.chainId || current.chainStep === null || !REFUNDED.has(current.status) || current.status === "cancelled") return null;
    const chain = await readChain(db, current.chainId);
    if (!chain || chain.status !== "active" || chain.currentOrderId !== current.id) return null;
    if (current.chainStep >= chain.maxRoutes) {
      await endChain(deps, chain.id, "ended", `no code from ${chain.maxRoutes} routes`);
      return null;
    }
    const env = envForUser(deps.env, chain.userId);
    const tried = new Set((await chainOrders(db, chain.id)).map((o) => routeKey(o.provider, o.countryId)));
    let route: NextRoute | undefined;
    try {
      [route] = await nextRoutes(env, db, chain, current, tried);
    } catch (err) {
      // The price lists cannot be read (the customer's provider is down): nothing to choose from, and the refund is
      // already made. Ending here keeps a retried alarm or the sweep from trying forever.
      if (!(err instanceof AppError)) throw err;
      route = undefined;
    }
    if (!route) {
      await endChain(deps, chain.id, "ended", "no other route within the cap");
      return null;
    }
    const placed = await placeNextRoute(deps, chain.userId, current, route);
    if (placed.kind === "stop") return null;
    if (placed.kind === "placed") return placed.orderId;
    current = placed.order; // refused upstream and refunded: on to the route after it
  }
}

type Placement = { kind: "placed"; orderId: string } | { kind: "failed"; order: SmsOrder } | { kind: "stop" };

async function placeNextRoute(deps: SmsDeps, userId: string, from: SmsOrder, route: NextRoute): Promise<Placement> {
  const db = deps.db;
  const chainId = from.chainId!;
  const step = from.chainStep! + 1;
  let found;
  try {
    found = await findSmsOffer(envForUser(deps.env, userId), route.provider, route.country, route.service);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await endChain(deps, chainId, "ended", `the next route could not be priced: ${err.message}`);
    return { kind: "stop" };
  }
  const [user] = await db.select({ totalDepositedKobo: users.totalDepositedKobo }).from(users).where(eq(users.id, userId)).limit(1);
  const priceKobo = smsPriceKobo(found.offer.costUsd, await pricingContext(db, user?.totalDepositedKobo ?? 0));
  const chain = await readChain(db, chainId);
  if (!chain || priceKobo > chain.capKobo) {
    await endChain(deps, chainId, "ended", "the next route now costs more than the cap");
    return { kind: "stop" };
  }
  const order = newOrder(
    { id: crypto.randomUUID(), userId, provider: route.provider, countryId: route.country, countryName: found.countryName, offer: found.offer, priceKobo, now: deps.clock.now() },
    { id: chainId, step },
  );
  const stillOnFrom = and(eq(smsChains.id, chainId), eq(smsChains.status, "active"), eq(smsChains.currentOrderId, from.id));
  try {
    // One batch: the order row (only while the chain is active and still on `from`: a cancel stops it here), its
    // debit (only if that row was written), and the chain moving to it. (chain_id, chain_step) is unique, so a second
    // tick moving on at the same moment fails the whole batch instead of buying twice.
    const [inserted] = await db.batch([
      db.insert(smsOrders).select(
        db
          .select(rowAsSelect(smsOrders, order))
          .from(smsChains)
          .where(stillOnFrom),
      ),
      guardedLedgerInsert(
        db,
        { userId, key: `buy:${order.id}`, amountKobo: -priceKobo, kind: "buy", note: purchaseNote(order), ref: order.id },
        exists(db.select({ one: sql`1` }).from(smsOrders).where(eq(smsOrders.id, order.id))),
      ),
      db.update(smsChains).set({ currentOrderId: order.id, updatedAt: deps.clock.now() }).where(stillOnFrom),
    ]);
    if ((inserted.meta.changes ?? 0) === 0) return { kind: "stop" }; // cancelled, or another tick moved on first
  } catch (err) {
    if (asInsufficientBalance(err) instanceof AppError) {
      await endChain(deps, chainId, "ended", "the wallet is too low for another number");
      return { kind: "stop" };
    }
    // The unique (chain_id, chain_step): someone else placed this step.
    if (String(err).includes("UNIQUE")) return { kind: "stop" };
    throw err;
  }
  try {
    await reserveNumber(deps, order, found.offer);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const failed = await readOrder(db, order.id);
    return failed && failed.status === "failed" ? { kind: "failed", order: failed } : { kind: "stop" };
  }
  // A cancel that came while this number was being bought stopped the chain: give the number back now.
  if ((await readChain(db, chainId))?.status === "cancelled") {
    const live = await readOrder(db, order.id);
    if (live?.status === "waiting") await cancelOrder(deps, live).catch(() => undefined);
    return { kind: "stop" };
  }
  return { kind: "placed", orderId: order.id };
}

/**
 * The end of a chain's route without a code, told to the screen: the order's sms.ended, naming the order the chain
 * moved on to (the dialog follows it) when it did.
 */
async function endedWithoutCode(deps: SmsDeps, order: SmsOrder, outcome: "timeout" | "error"): Promise<void> {
  const next = order.chainId ? await moveChainOn(deps, { ...order, status: outcome }) : null;
  await deps.notify(order.userId, {
    kind: "sms.ended",
    orderId: order.id,
    status: outcome,
    refunded: true,
    message: outcome === "timeout" ? SMS_TIMEOUT_MESSAGE : SMS_ERROR_MESSAGE,
    ...(next ? { nextOrderId: next } : {}),
  });
}

/** The sweep's backstop for a move-on that was cut short (a crash between the refund and the next purchase). */
async function resumeStalledChains(deps: SmsDeps, now: number): Promise<number> {
  let moved = 0;
  for (const stalled of await stalledChains(deps.db, now - 60_000)) {
    try {
      const order = await readOrder(deps.db, stalled.orderId);
      if (order && (await moveChainOn(deps, order))) moved += 1;
    } catch (err) {
      // One chain's fault must not stop the sweep's other work; the next run looks again.
      log("error", "sms chain could not move on", { chainId: stalled.chainId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return moved;
}

// ---------------------------------------------------------------------------------------------------------------
// Transitions

/**
 * Moves an order from `from` to a refunded final status and refunds it, atomically. Returns whether this call made
 * the transition (false: something else settled the order first, and nothing was written).
 */
async function settle(deps: SmsDeps, order: SmsOrder, outcome: RefundedStatus, from: "pending" | "waiting", reason: string): Promise<boolean> {
  const db = deps.db;
  const now = deps.clock.now();
  const [moved] = await db.batch([
    db
      .update(smsOrders)
      .set({ status: outcome, failureReason: reason.slice(0, 300), updatedAt: now })
      .where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, from))),
    // Written only if the order now holds this outcome (set just above, or never: a status leaves 'waiting' once).
    guardedLedgerInsert(
      db,
      { userId: order.userId, key: `refund:${order.id}`, amountKobo: order.priceKobo, kind: "refund", note: `Refund: ${purchaseNote(order)}`, ref: order.id },
      exists(db.select({ one: sql`1` }).from(smsOrders).where(and(eq(smsOrders.id, order.id), eq(smsOrders.status, outcome)))),
    ),
  ]);
  return (moved.meta.changes ?? 0) > 0;
}

/**
 * Stores the first code (waiting -> used) and keeps it in sms_order_codes, in one batch. The money stays spent.
 * The number stays open upstream for ANOTHER_CODE_WINDOW_MS ("request another code"); the poller completes it then.
 * Returns whether this call stored it.
 */
async function recordCode(deps: SmsDeps, order: SmsOrder, code: string, provider: SmsProvider): Promise<boolean> {
  const now = deps.clock.now();
  // Without "another code" upstream (sms-man) there is nothing to keep the number open for.
  const window = provider.requestAnotherCode ? ANOTHER_CODE_WINDOW_MS : 0;
  const stored = code.slice(0, 64);
  const d1 = deps.db.$client;
  const [moved] = await d1.batch([
    d1
      .prepare("UPDATE sms_orders SET status = 'used', code = ?1, activation_closes_at = ?2, updated_at = ?3 WHERE id = ?4 AND status = 'waiting'")
      .bind(stored, now + window, now, order.id),
    d1
      .prepare(
        `INSERT INTO sms_order_codes (order_id, code, received_at)
         SELECT id, ?1, ?2 FROM sms_orders WHERE id = ?3 AND status = 'used' AND code = ?1
         ON CONFLICT(order_id, code) DO NOTHING`,
      )
      .bind(stored, now, order.id),
  ]);
  if ((moved.meta.changes ?? 0) === 0) return false;
  if (order.chainId) await endChain(deps, order.chainId, "ended", "a code came");
  await deps.notify(order.userId, { kind: "sms.code", orderId: order.id, code, number: order.number ?? "" });
  if (window === 0 && order.upstreamId) await provider.finish(order.upstreamId).catch(() => undefined);
  return true;
}

/** Stores a further code on a used order that was waiting for another one. Returns whether this call stored it. */
async function recordAnotherCode(deps: SmsDeps, order: SmsOrder, code: string): Promise<boolean> {
  const now = deps.clock.now();
  const stored = code.slice(0, 64);
  const d1 = deps.db.$client;
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO sms_order_codes (order_id, code, received_at)
         SELECT id, ?1, ?2 FROM sms_orders WHERE id = ?3 AND status = 'used' AND another_code_requested_at IS NOT NULL
         ON CONFLICT(order_id, code) DO NOTHING`,
      )
      .bind(stored, now, order.id),
    d1
      .prepare(
        `UPDATE sms_orders SET code = ?1, another_code_requested_at = NULL, updated_at = ?2
          WHERE id = ?3 AND another_code_requested_at IS NOT NULL AND changes() > 0`,
      )
      .bind(stored, now, order.id),
  ]);
  if ((inserted.meta.changes ?? 0) === 0) return false;
  await deps.notify(order.userId, { kind: "sms.code", orderId: order.id, code, number: order.number ?? "" });
  return true;
}

async function readOrder(db: Db, orderId: string): Promise<SmsOrder | undefined> {
  const [row] = await db.select().from(smsOrders).where(eq(smsOrders.id, orderId)).limit(1);
  return row;
}

/** The caller's own order; anyone else's is indistinguishable from one that does not exist. */
async function readOwnOrder(db: Db, userId: string, orderId: string): Promise<SmsOrder> {
  const [row] = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Order not found.");
  return row;
}

/** The order's upstream: its provider (an unreadable name reads as Swift, as it always has) for its customer. */
function providerOf(deps: SmsDeps, order: Pick<SmsOrder, "provider" | "userId">): SmsProvider {
  const parsed = smsProviderSchema.safeParse(order.provider);
  return deps.provider(parsed.success ? parsed.data : ("Swift" satisfies SmsProviderName), order.userId);
}

/** How long past its creation an order may stay unsettled because the upstream's answer cannot be read. */
export const UNREADABLE_OUTCOME_LIMIT_MS = 60 * 60_000;

/**
 * What the upstream did with a number it would not release, read with one getStatus: the code (it wins), "gone"
 * (STATUS_CANCEL, NO_ACTIVATION: nothing will ever be delivered), "waiting", or null when it cannot be read now.
 */
async function readOutcome(provider: SmsProvider, upstreamId: string): Promise<SmsPollResult | { state: "gone" } | null> {
  try {
    const result = await provider.poll(upstreamId);
    return result.state === "cancelled" ? { state: "gone" } : result;
  } catch (err) {
    if (err instanceof SmsProviderError && err.kind === "not_found") return { state: "gone" };
    return null;
  }
}

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
  order: SmsOrder,
  outcome: "timeout" | "error",
  reason: string,
  now = deps.clock.now(),
): Promise<"settled" | "deferred"> {
  const provider = providerOf(deps, order);
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
        await recordCode(deps, order, last.code, provider);
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
  const current = await readOrder(deps.db, order.id);
  if (current?.status !== "waiting") return "settled";
  if (await settle(deps, order, outcome, "waiting", reason)) await endedWithoutCode(deps, order, outcome);
  return "settled";
}

// ---------------------------------------------------------------------------------------------------------------
// Polling (driven by the order's Durable Object)

/**
 * One poll of the upstream. Safe to run twice for the same tick or after a crash: it reads the order first, re-reads
 * it after the upstream call, and counts an attempt with a compare-and-set, so a repeated run polls once more at most
 * and never settles an order twice. Errors other than upstream faults propagate so the alarm is retried.
 */
export async function pollSmsOrderTick(deps: SmsDeps, orderId: string): Promise<TickResult> {
  const db = deps.db;
  const { interval_ms: delayMs, max_attempts: maxAttempts } = await getSetting(db, "sms_poll");
  const done = { again: false, delayMs };
  const before = await readOrder(db, orderId);
  if (before?.status === "used" && before.upstreamId) return usedOrderTick(deps, before, delayMs, maxAttempts);
  // A retried alarm after the refund but before the next route was bought: carry on (the claim lets one through).
  if (before?.chainId && (before.status === "timeout" || before.status === "error")) {
    await moveChainOn(deps, before);
    return done;
  }
  if (!before || before.status !== "waiting" || !before.upstreamId) return done;
  if (before.attempts >= maxAttempts) {
    const ended = await endWithoutCode(deps, before, "timeout", "no code within the polling window");
    return ended === "deferred" ? { again: true, delayMs } : done;
  }

  const provider = providerOf(deps, before);
  let result;
  try {
    result = await provider.poll(before.upstreamId);
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "sms poll failed", { orderId, kind: err.kind, detail: err.detail });
    if (!err.transient) {
      const ended = await endWithoutCode(deps, before, "error", `${err.kind}: ${err.detail}`);
      return ended === "deferred" ? { again: true, delayMs } : done;
    }
    result = null; // a blip: counts as an empty poll, the next tick tries again
  }

  const order = await readOrder(db, orderId);
  if (!order || order.status !== "waiting") return done;
  if (result?.state === "code") {
    // The next tick completes the number upstream once the another-code window has passed.
    if ((await recordCode(deps, order, result.code, provider)) && provider.requestAnotherCode) return { again: true, delayMs: ANOTHER_CODE_WINDOW_MS };
    return done;
  }
  if (result?.state === "cancelled") {
    const ended = await endWithoutCode(deps, order, "error", "cancelled upstream");
    return ended === "deferred" ? { again: true, delayMs } : done;
  }
  const [counted] = await db
    .update(smsOrders)
    .set({ attempts: order.attempts + 1, updatedAt: deps.clock.now() })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "waiting"), eq(smsOrders.attempts, order.attempts)))
    .returning({ attempts: smsOrders.attempts });
  const attempts = counted?.attempts ?? order.attempts + 1;
  if (attempts >= maxAttempts) {
    const latest = await readOrder(db, orderId);
    if (latest?.status === "waiting" && (await endWithoutCode(deps, latest, "timeout", `no code in ${maxAttempts} polls`)) === "deferred") {
      return { again: true, delayMs };
    }
    return done;
  }
  return { again: true, delayMs };
}

/**
 * A used order's ticks: while another code is awaited, poll for it (a code already stored, e.g. the last one that
 * STATUS_WAIT_RETRY repeats, is not new); give up on it after a polling window or when the number closes. With nothing
 * awaited, complete the number upstream once its window has passed. Never moves money.
 */
async function usedOrderTick(deps: SmsDeps, order: SmsOrder, delayMs: number, maxAttempts: number): Promise<TickResult> {
  const db = deps.db;
  const provider = providerOf(deps, order);
  const closesAt = order.activationClosesAt ?? 0;
  if (order.anotherCodeRequestedAt !== null) {
    const result = await provider.poll(order.upstreamId!).catch((err: unknown) => {
      if (err instanceof SmsProviderError) return null;
      throw err;
    });
    const latest = await readOrder(db, order.id);
    if (!latest || latest.anotherCodeRequestedAt === null) return { again: true, delayMs: Math.max(1000, closesAt - deps.clock.now()) };
    if (result?.state === "code" && !(await orderCodes(db, order.id)).includes(result.code.slice(0, 64))) {
      await recordAnotherCode(deps, latest, result.code);
      return { again: true, delayMs: Math.max(1000, closesAt - deps.clock.now()) };
    }
    const now = deps.clock.now();
    if (now - latest.anotherCodeRequestedAt < delayMs * maxAttempts && now < closesAt) return { again: true, delayMs };
    await db
      .update(smsOrders)
      .set({ anotherCodeRequestedAt: null, updatedAt: now })
      .where(and(eq(smsOrders.id, order.id), eq(smsOrders.anotherCodeRequestedAt, latest.anotherCodeRequestedAt)));
    log("info", "another code did not arrive", { orderId: order.id });
  }
  const now = deps.clock.now();
  if (now < closesAt) return { again: true, delayMs: closesAt - now };
  await provider.finish(order.upstreamId!).catch(() => undefined);
  return { again: false, delayMs };
}

/** Every code the order received, oldest first. */
export async function orderCodes(db: Db, orderId: string): Promise<string[]> {
  const rows = await db
    .select({ code: smsOrderCodes.code })
    .from(smsOrderCodes)
    .where(eq(smsOrderCodes.orderId, orderId))
    .orderBy(asc(smsOrderCodes.id));
  return rows.map((r) => r.code);
}

/** Codes of several orders at once (lists). */
export async function codesByOrder(db: Db, orderIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({ orderId: smsOrderCodes.orderId, code: smsOrderCodes.code })
    .from(smsOrderCodes)
    .where(inArray(smsOrderCodes.orderId, orderIds.slice(0, 90)))
    .orderBy(asc(smsOrderCodes.id));
  for (const r of rows) out.set(r.orderId, [...(out.get(r.orderId) ?? []), r.code]);
  return out;
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
export async function acceptPushedCode(deps: SmsDeps, provider: SmsProviderName, upstreamId: string): Promise<PushOutcome> {
  const db = deps.db;
  const [order] = await db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.provider, provider), eq(smsOrders.upstreamId, upstreamId)))
    .limit(1);
  if (!order) return "unknown";
  if (order.status !== "waiting") return "already_settled";
  const adapter = providerOf(deps, order);
  let result: SmsPollResult;
  try {
    result = await adapter.poll(upstreamId);
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "pushed sms code: getStatus failed, the poller will look", { orderId: order.id, kind: err.kind });
    return "not_yet";
  }
  if (result.state !== "code") return "not_yet";
  return (await recordCode(deps, order, result.code, adapter)) ? "settled" : "already_settled";
}

// ---------------------------------------------------------------------------------------------------------------
// Customer actions and reads


/**
 * "Request another code" on a number that already received one and is still open upstream: the upstream is asked
 * (SMS-Activate setStatus 3), the order waits for another code, and its poller looks for it. Free, like upstream.
 * Asking again while one is awaited answers the same without asking the upstream twice.
 */
export async function requestAnotherCode(deps: SmsDeps, userId: string, orderId: string): Promise<SmsAnotherCodeResponse> {
  const db = deps.db;
  const order = await readOwnOrder(db, userId, orderId);
  await enforceCostLimit(db, userId, "smsBuy");
  const answer = async (): Promise<SmsAnotherCodeResponse> => ({
    request_id: order.id,
    status: "used",
    waiting_for_another_code: true,
    codes: await orderCodes(db, order.id),
  });
  if (order.status !== "used") {
    throw new AppError("INVALID_STATE", order.status === "waiting" || order.status === "pending"
      ? "The first code has not arrived yet. You can ask for another code once it has."
      : "This order has ended, so it cannot receive another code.", { status: order.status });
  }
  if (order.anotherCodeRequestedAt !== null) return answer();
  const provider = providerOf(deps, order);
  if (!provider.requestAnotherCode) {
    throw new AppError("UNPROCESSABLE", "This provider does not support requesting another code. Please buy a new number.");
  }
  const now = deps.clock.now();
  if (!order.upstreamId || order.activationClosesAt === null || now >= order.activationClosesAt) {
    throw new AppError("INVALID_STATE", "This number is closed: another code can be asked for within 10 minutes of the first.", { status: order.status });
  }
  try {
    await provider.requestAnotherCode(order.upstreamId);
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    log("warn", "another code refused upstream", { orderId, kind: err.kind, detail: err.detail });
    if (err.transient) throw new AppError("UPSTREAM_UNAVAILABLE", err.message);
    throw new AppError("INVALID_STATE", "The provider would not send another code to this number. Please buy a new number.");
  }
  await db
    .update(smsOrders)
    .set({ anotherCodeRequestedAt: now, updatedAt: now })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "used")));
  try {
    const interval = (await getSetting(db, "sms_poll")).interval_ms;
    await pollerFor(deps, orderId).start(orderId, interval);
  } catch (err) {
    log("error", "sms poller did not wake for another code", { orderId, error: err instanceof Error ? err.message : String(err) });
  }
  return answer();
}

/** Completes a used number upstream now (the protocol's setStatus 6): no other code can come after. */
export async function completeSmsOrder(deps: SmsDeps, userId: string, orderId: string): Promise<void> {
  const db = deps.db;
  const order = await readOwnOrder(db, userId, orderId);
  if (order.status !== "used") throw notCancellable(order);
  const now = deps.clock.now();
  await db
    .update(smsOrders)
    .set({ activationClosesAt: now, anotherCodeRequestedAt: null, updatedAt: now })
    .where(and(eq(smsOrders.id, orderId), eq(smsOrders.status, "used")));
  if (order.upstreamId) await providerOf(deps, order).finish(order.upstreamId).catch(() => undefined);
}

export async function cancelSmsOrder(deps: SmsDeps, userId: string, orderId: string): Promise<SmsCancelResponse> {
  const order = await readOwnOrder(deps.db, userId, orderId);
  await enforceCostLimit(deps.db, userId, "smsCancel");
  if (order.chainId) return cancelChain(deps, order);
  return cancelOrder(deps, order);
}

/**
 * Cancelling any route of a chain cancels the chain: first the chain is marked cancelled (so a move-on under way stops,
 * or releases the number it is buying), then its live route is cancelled like any order. When no route is live (the
 * switch is between two routes), the cancel stands at once: everything charged so far was refunded.
 */
async function cancelChain(deps: SmsDeps, order: SmsOrder): Promise<SmsCancelResponse> {
  const db = deps.db;
  const stopped = await endChain(deps, order.chainId!, "cancelled", "cancelled by the customer");
  const chain = await readChain(db, order.chainId!);
  const live = chain && chain.currentOrderId !== order.id ? await readOrder(db, chain.currentOrderId) : order;
  if (live && (live.status === "waiting" || live.status === "used" || live.status === "cancelled")) return cancelOrder(deps, live);
  if (stopped || chain?.status === "cancelled") {
    if (stopped) await deps.notify(order.userId, { kind: "sms.ended", orderId: live?.id ?? order.id, status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE });
    return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  }
  return cancelOrder(deps, live ?? order);
}

async function cancelOrder(deps: SmsDeps, order: SmsOrder): Promise<SmsCancelResponse> {
  const db = deps.db;
  const userId = order.userId;
  const orderId = order.id;
  if (order.status === "cancelled") return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  if (order.status !== "waiting") throw notCancellable(order);

  const provider = providerOf(deps, order);
  const upstreamId = order.upstreamId!;
  // A code that already arrived wins over the cancel: look first.
  const first = await provider.poll(upstreamId).catch(() => null);
  if (first?.state === "code") {
    await recordCode(deps, order, first.code, provider);
    throw notCancellable((await readOrder(db, orderId)) ?? order);
  }

  let released: boolean;
  try {
    const result = await provider.cancel(upstreamId);
    released = result.outcome === "released";
  } catch (err) {
    if (!(err instanceof SmsProviderError)) throw err;
    if (err.kind !== "not_found") {
      throw new AppError(err.transient ? "UPSTREAM_UNAVAILABLE" : "INVALID_STATE", `Cancel failed: ${err.message}`);
    }
    released = true; // the upstream no longer holds the number: nothing left to release
  }
  if (!released) {
    // Refused (ACCESS_READY, EARLY_CANCEL_DENIED, wrong_status): what the upstream did decides (see endWithoutCode).
    const again = await readOutcome(provider, upstreamId);
    if (again?.state === "code") {
      await recordCode(deps, order, again.code, provider);
      throw notCancellable((await readOrder(db, orderId)) ?? order);
    }
    // Cancelled or unknown upstream: no code can come, so the customer's cancel stands and is refunded.
    if (again?.state !== "gone") {
      throw new AppError("INVALID_STATE", "The provider does not allow cancelling this number yet. Please try again in a minute.");
    }
  }

  if (await settle(deps, order, "cancelled", "waiting", "cancelled by the customer")) {
    await deps.notify(userId, { kind: "sms.ended", orderId, status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE });
    await pollerFor(deps, orderId)
      .stop()
      .catch(() => undefined);
    return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  }
  // Something settled the order while we were releasing it (a code, or the last poll): that outcome stands.
  const current = (await readOrder(db, orderId)) ?? order;
  if (current.status === "cancelled") return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  throw notCancellable(current);
}

function notCancellable(order: SmsOrder): AppError {
  const base = { status: order.status, refunded: REFUNDED.has(order.status) };
  if (order.status === "used") {
    return new AppError("INVALID_STATE", "The code has already arrived, so this order can no longer be cancelled.", { ...base, sms: order.code });
  }
  if (order.status === "pending") return new AppError("INVALID_STATE", "This number is still being reserved. Please try again in a moment.", base);
  return new AppError("INVALID_STATE", `This order has already ended (${order.status}) and its money was refunded.`, base);
}

export async function smsOrderStatus(deps: SmsDeps, userId: string, orderId: string): Promise<SmsStatusResponse> {
  const db = deps.db;
  const order = await readOwnOrder(db, userId, orderId);
  const supportsAnotherCode = Boolean(providerOf(deps, order).requestAnotherCode);
  const codes = await orderCodes(db, order.id);
  return {
    request_id: order.id,
    status: order.status,
    number: order.number,
    sms: smsText(order),
    sms_code: order.code,
    refunded: REFUNDED.has(order.status),
    // Every code received (an order can hold several after "request another code"); the latest is sms_code.
    codes: codes.length > 0 || !order.code ? codes : [order.code],
    waiting_for_another_code: order.anotherCodeRequestedAt !== null,
    can_request_another_code: canRequestAnotherCode(order, deps.clock.now()),
    // Free where it exists: only a number that stayed open after its code (the provider supports it) can have one.
    another_code_price: supportsAnotherCode ? 0 : null,
    chain: await chainStateFor(db, order),
  };
}

export function canRequestAnotherCode(order: Pick<SmsOrder, "status" | "anotherCodeRequestedAt" | "activationClosesAt">, now: number): boolean {
  return order.status === "used" && order.anotherCodeRequestedAt === null && order.activationClosesAt !== null && now < order.activationClosesAt;
}

/** The caller's own order row (services that shape it another way: the developer API). */
export async function ownSmsOrder(db: Db, userId: string, orderId: string): Promise<SmsOrder> {
  return readOwnOrder(db, userId, orderId);
}

function smsText(order: SmsOrder): string | null {
  if (order.status === "used") return order.code;
  if (order.status === "timeout") return SMS_TIMEOUT_TEXT;
  if (order.status === "error" || order.status === "failed") return SMS_ERROR_TEXT;
  return null;
}

/** POST /api/refund-user: the refund state only. Refunds are the server's decision (poller, cancel, sweep). */
export async function smsRefundState(db: Db, userId: string, orderId: string): Promise<SmsRefundStateResponse> {
  const order = await readOwnOrder(db, userId, orderId);
  const refunded = REFUNDED.has(order.status);
  return { request_id: order.id, status: order.status, refunded, amount: refunded ? koboToNaira(order.priceKobo) : 0 };
}

/** The orders table's SMS rows, not yet sent (the orders route batches it with the session check). */
export function smsOrderRowsQuery(db: Db, userId: string) {
  return db
    .select()
    .from(smsOrders)
    .where(and(eq(smsOrders.userId, userId), isNotNull(smsOrders.number)))
    .orderBy(desc(smsOrders.createdAt))
    .limit(200);
}

export function toSmsOrderRows(rows: Awaited<ReturnType<typeof smsOrderRowsQuery>>, balanceKobo: number): OrderRow[] {
  return rows.map((o) => ({
    kind: "sms" as const,
    reference_code: o.id,
    purchased_number: o.number ?? "",
    sms: o.code,
    country: o.countryName,
    service: o.serviceName,
    provider: o.provider,
    amount: koboToNaira(o.priceKobo),
    status: o.status,
    balance: koboToNaira(balanceKobo),
    created_at: new Date(o.createdAt).toISOString(),
    // Only routes of a "code or next route" chain carry these: every other row keeps the spec's Order shape.
    ...(o.chainId ? { chain_id: o.chainId, chain_step: o.chainStep } : {}),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// The cron backstop

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
    if ((await readOrder(db, order.id))?.status !== "waiting") settled += 1;
  }
  for (const order of stuck) {
    if (await settle(deps, order, "failed", "pending", "settled by the sweep: the purchase never completed")) settled += 1;
  }
  const resumed = await resumeStalledChains(deps, now);
  if (settled > 0 || resumed > 0) log("info", "sms sweep settled orders", { settled, resumed });
  return settled;
}

/**
 * The operator's "settle now" for one stuck order (the console's Orders page): the sweep's own transitions, for one
 * order. A waiting order is released upstream and refunded as a timeout, and a code that arrived meanwhile still wins
 * (endWithoutCode reads it and stores it instead); a pending one never reached the upstream and is refunded as failed.
 * Only once its poller's window has passed, so a live order is never cut short.
 */
export async function settleSmsOrderNow(deps: SmsDeps, orderId: string, now = deps.clock.now()): Promise<{ from: string; status: string; settled: boolean }> {
  const db = deps.db;
  const order = await readOrder(db, orderId);
  if (!order) throw new AppError("NOT_FOUND", "Order not found.");
  const poll = await getSetting(db, "sms_poll");
  const window = poll.interval_ms * poll.max_attempts;
  if (order.status === "waiting" && order.createdAt < now - window) {
    await endWithoutCode(deps, order, "timeout", "settled by an operator");
  } else if (order.status === "pending" && order.createdAt < now - PENDING_GRACE_MS) {
    await settle(deps, order, "failed", "pending", "settled by an operator: the purchase never completed");
  } else {
    throw new AppError("INVALID_STATE", order.status === "waiting" || order.status === "pending" ? "This order is still within its polling window." : "This order is already settled.");
  }
  const after = await readOrder(db, orderId);
  return { from: order.status, status: after?.status ?? order.status, settled: after?.status !== order.status };
}
