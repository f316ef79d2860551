import { and, sql, type SQL } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { MISSING_SERVICE_OR_COUNTRY, SMS_CANCELLED_MESSAGE, type SmsAnotherCodeResponse, type SmsCancelResponse, type SmsFinishResponse, type SmsGetNumberInput, type SmsGetNumberResponse, type SmsGetNumbersInput, type SmsGetNumbersResponse } from "../../../schema/sms";
import type { SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { users } from "../kernel";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { SignedInUser } from "../accounts";
import { isEmptyChoice, SmsProviderError, type NumberChoice, type SmsActivation, type UpstreamMoney } from "../../providers/sms/types";
import { choiceSurcharge, numberChoiceOf, orderChoice } from "./number-choice";
import { asInsufficientBalance, assertNotAboveShown, buyerOf, chargedBelowShown, catalogueFor, marginAtKobo, marginKobo, markupRateFor, refShareKobo, costLimitInBatch, deliverEvents, enforceCostLimit, getSetting, insufficientBalanceFor, move, type MoneyStep, type PricedBuyer, pricingContext, rowsOf, runBatch, type SmsDeps, smsPriceKobo, transition } from "../kernel";
import { smsFault } from "../../providers/sms/types";
import { FAILOVER_FAULTS, purchaseCandidates, type RoutingNotes, type UpstreamChoice } from "./routing";
import { PRIMARY_UPSTREAM } from "../../providers/sms/upstreams";
import { clearSmsCatalogueCache, findSmsOffer, resolveServiceId } from "./sms-catalogue";
import { chainOrders, chainStillOn, endChain, nextRoutes, readChain, routeKey, type RouteEnded, smsChain, startChain, type NextRoute } from "./sms-chain";
import { REFUNDED, findSmsOrder, orderCodes, ownSmsOrder, type SmsOrderRow } from "./sms-views";
import { buyFaultCode, readOutcome, upstreamFor } from "./sms-upstream";
import { pollPlan } from "./poll-plan";
import { buyOrder, closeActivation, endOrder, markAnotherCodeRequested, markReserved, pollerFor, purchaseNote, recordCode, settle } from "./sms-transitions";

/**
 * Receive SMS: the customer's commands (buy one or several numbers, cancel, request another code, complete), and the
 * chain's move-on, which buys the next route. Money moves only through the ledger:
 *   buy:    [order row 'pending' + debit buy:<id>] in one batch, then the upstream is asked;
 *           a refusal -> [status 'failed' + refund:<id>] at once.
 *   poll:   the order's Durable Object calls pollSmsOrderTick every sms_poll.interval_ms.
 *   end:    every transition out of 'waiting' is a conditional UPDATE (WHERE status = 'waiting'), batched with a refund
 *           that is only written when the order now holds that refunded status. So an order has exactly one outcome,
 *           at most one refund, and none when the code came ('used' is final and keeps the money).
 * The order's commands live here; its poller's tick, pushed codes and the sweep are sms-poll.ts, its reads
 * sms-views.ts, the upstream it talks to sms-upstream.ts, the guarded transitions both sides make sms-transitions.ts,
 * and the "code or next route" chain's rows sms-chain.ts (as rentals.ts, rental-inbox.ts, rental-views.ts and
 * rental-upstream.ts split Rent Number). Every function takes the flow's SmsDeps (services/deps.ts).
 */

// ---------------------------------------------------------------------------------------------------------------
// Buying

export type OfferForSale = Awaited<ReturnType<typeof findSmsOffer>>["offer"];

/**
 * `serviceByName`: the web API's purchases (routes/sms.ts) let a Dynamic purchase name a service by Swift's id, as the
 * spec's original client does (resolveServiceId, issue 27); the developer APIs name each provider's own ids.
 */
export async function buySmsNumber(
  deps: SmsDeps,
  user: SignedInUser,
  input: SmsGetNumberInput,
  { serviceByName = false }: { serviceByName?: boolean } = {},
): Promise<SmsGetNumberResponse> {
  // A sandbox account (test API key) buys from the sandbox simulators whatever PROVIDERS says (its prices too).
  const catalogue = catalogueFor(deps, user.id);
  const country = input.country ?? "";
  const named = input.service ?? "";
  if (!country || !named) throw new AppError("VALIDATION_FAILED", MISSING_SERVICE_OR_COUNTRY);
  const providerName = input.provider;
  const service = serviceByName ? await resolveServiceId(catalogue, providerName, country, named) : named;
  const db = deps.db;

  const { offer, countryName } = await findSmsOffer(catalogue, providerName, country, service);
  // Issue 49: the number asked for (carrier, area codes, operator) is priced with its documented surcharge, and one no
  // upstream of the route can honour is refused here: before anything is written or debited.
  const choice = numberChoiceOf(input);
  const surcharge = await choiceSurcharge(deps, user.id, providerName, country, choice);
  // Issue 46: a reseller's sub-account pays the reseller's price plus its markup; the difference is the reseller's margin,
  // recorded on the order and credited when the order is kept (sms-transitions.ts `code`).
  const basePriceKobo = smsPriceKobo(offer.costUsd * (1 + surcharge / 100), await pricingContext(db, user));
  const margin = marginKobo(basePriceKobo, user.resellerMarkup, offer.serviceId);
  const priceKobo = basePriceKobo + margin;
  // Issue 46 (decision 075): a developer's `ref` earns a share of our price (not of a reseller's markup), paid from our
  // revenue when the order is kept; the customer pays the same.
  const refShare = refShareKobo(basePriceKobo, user.developerRef);
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
  const order = newOrder(
    { id: orderId, userId: user.id, provider: providerName, countryId: country, countryName, offer, priceKobo, now, choice, margin: margin > 0 && user.resellerMarkup ? { kobo: margin, userId: user.resellerMarkup.resellerId } : undefined, refShare: refShare > 0 && user.developerRef ? { kobo: refShare, userId: user.developerRef.walletId } : undefined },
    chained ? { id: orderId, step: 1 } : null,
  );
  // The per-account cost limit (issue 12 hole 6) is counted in this batch, not a round trip of its own (decision 031);
  // on the customer's own account (a sandbox key's test account is counted as itself), before the upstream is asked.
  // The chain (when the customer ticked "try another number") is written only if the order row was.
  const nextRoute = input.next_route;
  const chainMarkup = user.resellerMarkup && markupRateFor(user.resellerMarkup, offer.serviceId) > 0 ? { basisPoints: markupRateFor(user.resellerMarkup, offer.serviceId), userId: user.resellerMarkup.resellerId } : null;
  await writePaidOrder(db, user.id, order, { priceKobo, note: purchaseNote(order), now }, nextRoute ? (bought) => startChain(db, orderId, user.id, offer.name, nextRoute, now, bought, chainMarkup) : undefined);

  let activation: SmsActivation;
  try {
    activation = await reserveNumber(deps, order, offer, { buyer: user });
  } catch (err) {
    // The customer saw this purchase refused: a chain behind it must never buy a number they do not know about.
    if (chained) await endChain(deps, { id: orderId, userId: user.id }, orderId, "the first number could not be bought");
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

export function newOrder(
  o: { id: string; userId: string; provider: SmsProviderName; countryId: string; countryName: string; offer: OfferForSale; priceKobo: number; now: number; choice?: NumberChoice; margin?: { kobo: number; userId: string }; refShare?: { kobo: number; userId: string } },
  chain: { id: string; step: number } | null,
): SmsOrderRow {
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
    upstream: null,
    upstreamAccount: 0,
    numberChoice: isEmptyChoice(o.choice) ? null : JSON.stringify(o.choice),
    marginKobo: o.margin?.kobo ?? 0,
    marginUserId: o.margin?.userId ?? null,
    refShareKobo: o.refShare?.kobo ?? 0,
    refUserId: o.refShare?.userId ?? null,
    keptRefundedAt: null,
    moveId: null,
    createdAt: o.now,
    updatedAt: o.now,
  };
}

/**
 * Asks the upstream for the number of an order already written 'pending' with its debit, and starts its poller. A
 * refusal refunds the order at once ('failed') and throws the AppError the customer is shown.
 */
export async function reserveNumber(
  deps: SmsDeps,
  order: SmsOrderRow,
  offer: OfferForSale,
  {
    avoid = [],
    reuse,
    buyer,
  }: {
    /** The buyer the order was priced for (routing prices another upstream's offer at that tier). */
    buyer?: PricedBuyer;
    /** Upstreams "code or next route" already used in this chain: tried last. */
    avoid?: string[];
    /** A past number taken again (sms/use-again.ts): only the upstream account that served it can, so no routing. */
    reuse?: { from: SmsOrderRow; take: (maxCost: UpstreamMoney) => Promise<SmsActivation> };
  } = {},
): Promise<SmsActivation> {
  const orderId = order.id;
  const db = deps.db;
  // Issue 32: the provider's upstreams in routing's order (learned best, then the operator's list); a down, sold-out,
  // short or full one passes the purchase to the next, never at a higher price than the order charged.
  const notes: RoutingNotes = { cheapestAboveKobo: null, allFull: false };
  let served: UpstreamChoice | null = null;
  let activation: SmsActivation | null = null;
  let lastErr: unknown = null;
  try {
    if (reuse) {
      const maxCost = { amount: offer.cost, currency: offer.currency };
      const choice: UpstreamChoice = {
        upstream: (reuse.from.upstream as UpstreamChoice["upstream"] | null) ?? PRIMARY_UPSTREAM[order.provider === "Dynamic" ? "Dynamic" : "Swift"],
        account: reuse.from.upstreamAccount ?? 0,
        adapter: upstreamFor(deps, reuse.from),
        serviceId: order.serviceId,
        maxCost,
        priceKobo: order.priceKobo,
      };
      // The ceiling is the upstream's own figure in its own currency: the price we quoted, never a converted guess.
      activation = await reuse.take(maxCost);
      served = choice;
    } else {
      for await (const choice of purchaseCandidates(deps, { ...order, avoid, buyer, choice: orderChoice(order) }, offer, notes)) {
        try {
          // The ceiling is the upstream's own figure in its own currency: the price we quoted, never a converted guess.
          activation = await choice.adapter.buy({ countryId: order.countryId, serviceId: choice.serviceId, maxCost: choice.maxCost, ...(choice.choice ? { choice: choice.choice } : {}) });
          served = choice;
          break;
        } catch (err) {
          lastErr = err;
          const kind = err instanceof SmsProviderError ? err.kind : "exception";
          log("warn", "sms purchase refused upstream", {
            orderId,
            provider: order.provider,
            upstream: choice.upstream,
            account: choice.account,
            kind,
            detail: err instanceof SmsProviderError ? err.detail : err instanceof Error ? err.message : String(err),
          });
          if (!(err instanceof SmsProviderError) || !FAILOVER_FAULTS.has(err.kind)) break;
        }
      }
    }
  } catch (err) {
    lastErr = err; // routing itself failed (a D1 read): the order is refunded below like any refusal
  }
  if (!served || !activation) {
    const err =
      lastErr instanceof SmsProviderError || !lastErr
        ? ((lastErr as SmsProviderError | null) ?? smsFault(notes.allFull ? "too_many_active" : "no_numbers", notes.allFull ? "every upstream account is full" : "no configured upstream sells it"))
        : lastErr;
    const reason = err instanceof SmsProviderError ? err.message : "The provider could not be reached. Please try again shortly.";
    await settle(deps, order, "failed", err instanceof SmsProviderError ? `${err.kind}: ${err.detail}` : String(err));
    if (!(err instanceof SmsProviderError)) throw err;
    // A price that moved upstream means our cached list is stale: forget it so the next view shows the new one.
    if (err.kind === "price_exceeded" || err.kind === "no_numbers") clearSmsCatalogueCache();
    // Another upstream sells it, but dearer than the order: the customer is asked first (the 409 price-changed path).
    if (notes.cheapestAboveKobo !== null && (err.kind === "no_numbers" || err.kind === "price_exceeded" || err.kind === "too_many_active" || err.kind === "no_balance" || err.transient)) {
      const price = koboToNaira(notes.cheapestAboveKobo);
      throw new AppError("PRICE_CHANGED", `The price has changed to ₦${price.toFixed(2)}. Please confirm the new price.`, { price, refunded: true, debitRef: `buy:${orderId}` });
    }
    throw new AppError(buyFaultCode(err.kind), reason, { phone: { error_msg: reason }, refunded: true, debitRef: `buy:${orderId}` });
  }
  const provider = served.adapter;
  const pollSetting = await getSetting(db, "sms_poll");
  // Decision 051: where the upstream pushes codes the poller first wakes later (its fallback schedule).
  const plan = pollPlan(deps.env, { provider: order.provider, upstream: served.upstream }, pollSetting.max_attempts);

  if (!(await markReserved(deps, orderId, activation, served, plan.first - 1))) {
    // Only the sweep moves a 'pending' order (after minutes): it was refunded already, so the number goes back too.
    await provider.cancel(activation.upstreamId).catch(() => undefined);
    throw new AppError("INVALID_STATE", "This order changed while it was being placed. Please check your orders.");
  }

  try {
    await pollerFor(deps, orderId).start(orderId, plan.first * pollSetting.interval_ms);
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
export async function buySmsNumbers(
  deps: SmsDeps,
  user: SignedInUser,
  input: SmsGetNumbersInput,
  opts: { serviceByName?: boolean } = {},
): Promise<SmsGetNumbersResponse> {
  const { quantity, ...one } = input;
  const orders: SmsGetNumberResponse[] = [];
  for (let i = 0; i < quantity; i += 1) {
    try {
      orders.push(await buySmsNumber(deps, user, one, opts));
    } catch (err) {
      if (orders.length === 0 || !(err instanceof AppError)) throw err;
      return { orders, requested: quantity, error: { code: err.code, message: err.message } };
    }
  }
  return { orders, requested: quantity, error: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Another code, complete, cancel

/**
 * "Request another code" on a number that already received one and is still open upstream: the upstream is asked
 * (SMS-Activate setStatus 3), the order waits for another code, and its poller looks for it. Free, like upstream.
 * Asking again while one is awaited answers the same without asking the upstream twice.
 */
export async function requestAnotherCode(deps: SmsDeps, userId: string, orderId: string): Promise<SmsAnotherCodeResponse> {
  const db = deps.db;
  const order = await ownSmsOrder(db, userId, orderId);
  await enforceCostLimit(db, userId, "smsBuy", deps.clock.now());
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
  const provider = upstreamFor(deps, order);
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
  await markAnotherCodeRequested(deps, orderId, now);
  try {
    const interval = (await getSetting(db, "sms_poll")).interval_ms;
    await pollerFor(deps, orderId).start(orderId, interval);
  } catch (err) {
    log("error", "sms poller did not wake for another code", { orderId, error: err instanceof Error ? err.message : String(err) });
  }
  return answer();
}

/**
 * Completes a used number upstream now (the protocol's setStatus 6): no other code can come after. The web's "Stop
 * waiting" for another code (issue 43) and the protocol's setStatus 6 both end here; the order's codes stay its own.
 */
export async function completeSmsOrder(deps: SmsDeps, userId: string, orderId: string): Promise<void> {
  const db = deps.db;
  const order = await ownSmsOrder(db, userId, orderId);
  if (order.status !== "used") throw notCancellable(order);
  await closeActivation(deps, orderId);
  if (order.upstreamId) await upstreamFor(deps, order).finish(order.upstreamId).catch(() => undefined);
  // Nothing is left for the poller: its alarm for the window's end would only complete the number a second time (and
  // every alarm set is billed as a row written). Best effort: a missed stop costs one harmless tick.
  await pollerFor(deps, orderId)
    .stop()
    .catch(() => undefined);
}

/** The web's "Stop waiting" for another code (issue 43): the number closes now; the codes it received stay. */
export async function finishSmsOrder(deps: SmsDeps, userId: string, orderId: string): Promise<SmsFinishResponse> {
  await completeSmsOrder(deps, userId, orderId);
  return { request_id: orderId, status: "used", waiting_for_another_code: false, codes: await orderCodes(deps.db, orderId) };
}

export async function cancelSmsOrder(deps: SmsDeps, userId: string, orderId: string): Promise<SmsCancelResponse> {
  const order = await ownSmsOrder(deps.db, userId, orderId);
  await enforceCostLimit(deps.db, userId, "smsCancel", deps.clock.now());
  if (order.chainId) return cancelChain(deps, order);
  return cancelOrder(deps, order);
}

/**
 * Cancelling any route of a chain cancels the chain: first the chain is marked cancelled (so a move-on under way stops,
 * or releases the number it is buying), then its live route is cancelled like any order. When no route is live (the
 * switch is between two routes), the cancel stands at once: everything charged so far was refunded.
 */
async function cancelChain(deps: SmsDeps, order: SmsOrderRow): Promise<SmsCancelResponse> {
  const db = deps.db;
  const isLive = (o: SmsOrderRow | undefined): o is SmsOrderRow => o !== undefined && (o.status === "waiting" || o.status === "used" || o.status === "cancelled");
  const liveRoute = async () => {
    const chain = await readChain(db, order.chainId!);
    return { chain, route: chain && chain.currentOrderId !== order.id ? await findSmsOrder(db, chain.currentOrderId) : order };
  };
  const before = await liveRoute();
  // Between two routes every charge was refunded with its route's own end: the chain's cancel tells it, in its own
  // batch. A live route is cancelled below and tells its own end.
  const endedId = before.route?.id ?? order.id;
  const told: RouteEnded | null = isLive(before.route) ? null : { kind: "sms.ended", orderId: endedId, status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  const stopped = await transition(db, smsChain.cancel, order.chainId!, { from: endedId, reason: "cancelled by the customer", ended: told, userId: order.userId }, deps.clock.now());
  if (stopped.eventWritten) await deliverEvents(deps, order.userId);
  const after = await liveRoute();
  if (isLive(after.route)) return cancelOrder(deps, after.route);
  if (stopped.moved || after.chain?.status === "cancelled") return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  return cancelOrder(deps, after.route ?? order);
}

async function cancelOrder(deps: SmsDeps, order: SmsOrderRow): Promise<SmsCancelResponse> {
  const db = deps.db;
  const orderId = order.id;
  if (order.status === "cancelled") return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  if (order.status !== "waiting") throw notCancellable(order);

  const provider = upstreamFor(deps, order);
  const upstreamId = order.upstreamId!;
  // A code that already arrived wins over the cancel: look first.
  const first = await provider.poll(upstreamId).catch(() => null);
  if (first?.state === "code") {
    await recordCode(deps, order, first.code, provider, first.text);
    throw notCancellable((await findSmsOrder(db, orderId)) ?? order);
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
      await recordCode(deps, order, again.code, provider, again.text);
      throw notCancellable((await findSmsOrder(db, orderId)) ?? order);
    }
    // Cancelled or unknown upstream: no code can come, so the customer's cancel stands and is refunded.
    if (again?.state !== "gone") {
      throw new AppError("INVALID_STATE", "The provider does not allow cancelling this number yet. Please try again in a minute.");
    }
  }

  const ended = { kind: "sms.ended", orderId, status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE } as const;
  if (await settle(deps, order, "cancelled", "cancelled by the customer", ended)) {
    await pollerFor(deps, orderId)
      .stop()
      .catch(() => undefined);
    return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  }
  // Something settled the order while we were releasing it (a code, or the last poll): that outcome stands.
  const current = (await findSmsOrder(db, orderId)) ?? order;
  if (current.status === "cancelled") return { status: "cancelled", refunded: true, message: SMS_CANCELLED_MESSAGE };
  throw notCancellable(current);
}

function notCancellable(order: SmsOrderRow): AppError {
  const base = { status: order.status, refunded: REFUNDED.has(order.status) };
  if (order.status === "used") {
    return new AppError("INVALID_STATE", "The code has already arrived, so this order can no longer be cancelled.", { ...base, sms: order.code });
  }
  if (order.status === "pending") return new AppError("INVALID_STATE", "This number is still being reserved. Please try again in a moment.", base);
  return new AppError("INVALID_STATE", `This order has already ended (${order.status}) and its money was refunded.`, base);
}

// ---------------------------------------------------------------------------------------------------------------
// "Code or next route": buying the next route (docs/decisions/022-code-or-next-route.md; the chain's rows: sms-chain.ts)

/** A route of a chain ending without a code now: its move is made in the move-on's own batch. */
export interface Ending {
  outcome: "timeout" | "error";
  reason: string;
  /** The route's sms.ended, naming the order the chain moves on to (null: nothing follows it). */
  told: (nextOrderId: string | null) => RouteEnded;
}

/**
 * A route of a chain ended without a code (`ending`: it ends now; else it ended refunded before, e.g. its purchase was
 * refused at once, or a crash cut a move-on short): buys the next route and returns its order id, or null when the
 * chain does not move on (it was cancelled, already moved on, has no route left within the cap, or the wallet is
 * short: then the chain ends). The route's refund, the next route's order and debit, the chain's move (or its end)
 * and the route's sms.ended naming what follows are ONE batch (placeNextRoute), so the event is written with the
 * money. A route the upstream refuses at once ('failed', refunded) is passed over for the one after it. Safe to run
 * twice: the batch's guards let one caller through.
 */
export async function moveChainOn(deps: SmsDeps, from: SmsOrderRow, ending?: Ending): Promise<string | null> {
  const db = deps.db;
  let current = from;
  let now: Ending | undefined = ending;
  for (;;) {
    if (!current.chainId || current.chainStep === null) return null;
    if (!now && (!REFUNDED.has(current.status) || current.status === "cancelled")) return null;
    const chain = await readChain(db, current.chainId);
    if (!chain || chain.status !== "active" || chain.currentOrderId !== current.id) {
      // Not this chain's live route any more (cancelled, or moved on by another tick): a route ending now is told alone.
      if (now) await settle(deps, current, now.outcome, now.reason, now.told(null));
      return null;
    }
    const next = await chooseNextRoute(deps, chain, current);
    const placed = await placeNextRoute(deps, chain, current, now, next);
    if (placed.kind === "stop") return null;
    if (placed.kind === "placed") return placed.orderId;
    current = placed.order; // refused upstream and refunded: on to the route after it
    now = undefined;
  }
}

type Chosen = { kind: "route"; route: NextRoute; offer: OfferForSale; countryName: string; priceKobo: number; margin?: { kobo: number; userId: string } } | { kind: "end"; reason: string };

/** The next route within the chain's rules (at most its routes, allowed, in stock, within the cap), priced now. */
async function chooseNextRoute(deps: SmsDeps, chain: NonNullable<Awaited<ReturnType<typeof readChain>>>, from: SmsOrderRow): Promise<Chosen> {
  const db = deps.db;
  if (from.chainStep! >= chain.maxRoutes) return { kind: "end", reason: `no code from ${chain.maxRoutes} routes` };
  const triedOrders = await chainOrders(db, chain.id);
  const tried = new Set(triedOrders.map((o) => routeKey(o.provider, o.countryId)));
  let route: NextRoute | undefined;
  // Issue 49: the chain keeps the customer's number choice: the next route is the cheapest one that can honour it.
  const choice = orderChoice(from);
  let surcharge = 0;
  try {
    for (const candidate of await nextRoutes(catalogueFor(deps, chain.userId), db, chain, from, tried, deps.clock.now())) {
      if (isEmptyChoice(choice)) {
        route = candidate;
        break;
      }
      const honoured = await choiceSurcharge(deps, chain.userId, candidate.provider, candidate.country, choice!).then(
        (percent) => percent,
        (e: unknown) => (e instanceof AppError ? null : Promise.reject(e)),
      );
      if (honoured !== null) {
        route = candidate;
        surcharge = honoured;
        break;
      }
    }
  } catch (err) {
    // The price lists cannot be read (the customer's provider is down): nothing to choose from. Ending keeps a retried
    // alarm or the sweep from trying forever.
    if (!(err instanceof AppError)) throw err;
    route = undefined;
  }
  if (!route) return { kind: "end", reason: "no other route within the cap" };
  let found;
  try {
    found = await findSmsOffer(catalogueFor(deps, chain.userId), route.provider, route.country, route.service);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { kind: "end", reason: `the next route could not be priced: ${err.message}` };
  }
  const basePriceKobo = smsPriceKobo(found.offer.costUsd * (1 + surcharge / 100), await pricingContext(db, await buyerOf(db, chain.userId)));
  // A sub-account's chain: the markup its first number carried (decision 076), margin credited when this one is kept.
  const margin = marginAtKobo(basePriceKobo, chain.markupBasisPoints);
  const priceKobo = basePriceKobo + margin;
  if (priceKobo > chain.capKobo) return { kind: "end", reason: "the next route now costs more than the cap" };
  return { kind: "route", route, offer: found.offer, countryName: found.countryName, priceKobo, ...(margin > 0 && chain.marginUserId ? { margin: { kobo: margin, userId: chain.marginUserId } } : {}) };
}

type Placement = { kind: "placed"; orderId: string } | { kind: "failed"; order: SmsOrderRow } | { kind: "stop" };

/** The wallet holds `kobo` (read in the statement: after the refund the same batch wrote before it). */
const holds = (userId: string, kobo: number): SQL => sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${userId} AND ${users.balanceKobo} >= ${kobo})`;

async function placeNextRoute(deps: SmsDeps, chain: { id: string; userId: string }, from: SmsOrderRow, ending: Ending | undefined, next: Chosen): Promise<Placement> {
  const db = deps.db;
  const at = deps.clock.now();
  const userId = chain.userId;
  const usedUpstreams = [...new Set((await chainOrders(db, chain.id)).map((o) => o.upstream).filter((u): u is string => Boolean(u)))];
  const offer = next.kind === "route" ? next.offer : null;
  const order =
    next.kind === "route"
      ? newOrder(
          { id: crypto.randomUUID(), userId, provider: next.route.provider, countryId: next.route.country, countryName: next.countryName, offer: next.offer, priceKobo: next.priceKobo, now: at, choice: orderChoice(from), margin: next.margin },
          { id: chain.id, step: from.chainStep! + 1 },
        )
      : null;
  // One batch (decision 062): the route ending now (refunded), the next route's order (only while the chain is active
  // and still on `from`, and the wallet holds its price after that refund: a cancel or a short wallet stops it here),
  // its debit, the chain's move to it with the ended route's sms.ended naming it; or, when nothing was bought, the
  // chain's end with the route's sms.ended. (chain_id, chain_step) is unique, so a second tick moving on at the same
  // moment fails its whole batch instead of buying twice.
  const ended = ending ? endOrder(deps, ending.outcome, { order: from, reason: ending.reason, told: null }, at) : null;
  const bought = order ? buyOrder(deps, order, purchaseNote(order), at, and(chainStillOn(chain.id, from.id), ended?.madeIt, holds(userId, order.priceKobo))) : null;
  const steps = {
    ended,
    bought,
    movedOn: order && bought ? move(db, smsChain.moveOn, chain.id, { from: from.id, next: order.id, ended: ending?.told(order.id) ?? null, userId }, at, { when: bought.madeIt }) : null,
    // Nothing was bought (no route, or the wallet is short): the chain ends, still on `from`.
    stopped: move(db, smsChain.end, chain.id, { from: from.id, reason: next.kind === "end" ? next.reason : "the wallet is too low for another number", ended: ending?.told(null) ?? null, userId }, at, { when: ended?.madeIt }),
  } satisfies Record<string, MoneyStep<unknown> | null>;
  let result;
  try {
    result = await runBatch(db, steps);
  } catch (err) {
    // The unique (chain_id, chain_step): someone else placed this step (and ended `from` in their batch).
    if (String(err).includes("UNIQUE")) return { kind: "stop" };
    throw asInsufficientBalance(err);
  }
  if (result.movedOn?.eventWritten || result.stopped.eventWritten) await deliverEvents(deps, userId);
  if (!order || !offer || !result.bought?.moved) return { kind: "stop" }; // ended, cancelled, or another tick moved on first
  try {
    await reserveNumber(deps, order, offer, { avoid: usedUpstreams });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const failed = await findSmsOrder(db, order.id);
    return failed && failed.status === "failed" ? { kind: "failed", order: failed } : { kind: "stop" };
  }
  // A cancel that came while this number was being bought stopped the chain: give the number back now.
  if ((await readChain(db, chain.id))?.status === "cancelled") {
    const live = await findSmsOrder(db, order.id);
    if (live?.status === "waiting") await cancelOrder(deps, live).catch(() => undefined);
    return { kind: "stop" };
  }
  return { kind: "placed", orderId: order.id };
}

/**
 * Writes a paid order, as every purchase does (a new number, or a past number used again): one atomic batch of the
 * counted cost-limit hit (issue 12 hole 6, decision 031: counted in this batch, not a round trip of its own), the order
 * row only within the limit and while the wallet holds its price, with its debit (sms-transitions.ts smsOrder.buy),
 * and what belongs with it (a chain), written only if the order was. A refusal (limit or wallet) writes no order,
 * chain or ledger row, yet keeps the hit counted like enforceCostLimit would.
 */
export async function writePaidOrder(
  db: Db,
  userId: string,
  order: SmsOrderRow,
  paid: { priceKobo: number; note: string; now: number },
  withOrder?: (bought: SQL) => MoneyStep<unknown>,
): Promise<void> {
  const { priceKobo, note } = paid;
  const limit = costLimitInBatch(db, userId, "smsBuy", paid.now);
  const bought = buyOrder({ db }, order, note, paid.now, and(holds(userId, priceKobo), limit.within));
  let result;
  try {
    result = await runBatch(db, { counted: rowsOf(limit.count), bought, withOrder: withOrder?.(bought.madeIt) ?? null });
  } catch (err) {
    // The balance CHECK stays the backstop of the guard above.
    const refusal = asInsufficientBalance(err);
    throw refusal instanceof AppError && refusal.code === "INSUFFICIENT_BALANCE" ? await insufficientBalanceFor(db, userId, priceKobo) : refusal;
  }
  limit.enforce(result.counted);
  if (!result.bought.moved) throw await insufficientBalanceFor(db, userId, priceKobo);
}
