import { sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import { smsProviderSchema, type SmsUseAgainInput, type SmsUseAgainQuote, type SmsGetNumberResponse } from "../../../schema/sms";
import type { SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { SmsProvider } from "../../providers/sms/types";
import type { SignedInUser } from "../accounts";
import { assertNotAboveShown, catalogueFor, chargedBelowShown, pricingContext, type SmsDeps, smsPriceKobo } from "../kernel";
import { findSmsOffer } from "./sms-catalogue";
import { newOrder, reserveNumber, writePaidOrder } from "./sms-orders";
import { purchaseNote } from "./sms-transitions";
import { upstreamFor } from "./sms-upstream";
import { ownSmsOrder, smsHoldTime, type SmsOrderRow } from "./sms-views";

/**
 * "Use this number again" (issue 32): a past number that received a code is taken again for a new code, where its
 * upstream documents that (SmsProvider.reactivate: DaisySMS's getExtraActivation). The new order is an order like any
 * other: its own row, its own debit buy:<id> in the purchase's one batch, its own poller, and its own refund:<id> when
 * no code comes. The server decides eligibility and price; another customer's order is 404 (ownSmsOrder).
 */

/** How long after a purchase its number may be asked for again (the upstreams document no limit; numbers rotate). */
export const USE_AGAIN_WITHIN_MS = 30 * 24 * 3_600_000;
/** Orders of one provider and service needed before a typical wait is quoted (the status page's minimum too). */
export const TYPICAL_WAIT_MIN_SAMPLE = 30;

type Eligible = Pick<SmsOrderRow, "status" | "upstreamId" | "number" | "createdAt" | "activationClosesAt" | "anotherCodeRequestedAt">;

/**
 * Whether an order's number may be taken again now: its upstream can (`reactivates`), it received a code (DaisySMS
 * charges a penalty for an extra activation that never gets one, and a number that never got a code is no number the
 * customer used), its own activation is over (while open, "request another code" is the free way), and it is recent.
 */
export function canUseAgain(order: Eligible, reactivates: boolean, now: number): boolean {
  if (!reactivates || order.status !== "used" || !order.upstreamId || !order.number) return false;
  if (order.anotherCodeRequestedAt !== null) return false;
  if (order.activationClosesAt !== null && now < order.activationClosesAt) return false;
  return now - order.createdAt <= USE_AGAIN_WITHIN_MS;
}

/** The orders table's test for its "Use this number again" button, one row at a time (no upstream is asked). */
export function useAgainCheck(deps: SmsDeps): (order: SmsOrderRow) => boolean {
  const now = deps.clock.now();
  return (order) => canUseAgain(order, reactivatorOf(deps, order) !== null, now);
}

function reactivatorOf(deps: SmsDeps, order: SmsOrderRow): NonNullable<SmsProvider["reactivate"]> | null {
  const provider = upstreamFor(deps, order);
  return provider.reactivate ? provider.reactivate.bind(provider) : null;
}

async function eligibleOrder(deps: SmsDeps, userId: string, orderId: string): Promise<SmsOrderRow> {
  const order = await ownSmsOrder(deps.db, userId, orderId);
  if (!canUseAgain(order, reactivatorOf(deps, order) !== null, deps.clock.now())) {
    throw new AppError("INVALID_STATE", "This number cannot be used again. Please buy a new number.", { status: order.status });
  }
  return order;
}

function providerOf(order: SmsOrderRow): SmsProviderName {
  const parsed = smsProviderSchema.safeParse(order.provider);
  return parsed.success ? parsed.data : "Swift";
}

async function priceFor(deps: SmsDeps, user: SignedInUser, order: SmsOrderRow) {
  const found = await findSmsOffer(catalogueFor(deps, user.id), providerOf(order), order.countryId, order.serviceId);
  return { ...found, priceKobo: smsPriceKobo(found.offer.costUsd, await pricingContext(deps.db, user)) };
}

/** Median seconds from purchase to first code for one provider and service, over 30 days; null below the sample. */
export async function typicalWaitSeconds(db: Db, provider: string, serviceId: string, now: number): Promise<number | null> {
  const rows = await db.all<{ wait: number }>(sql`
    SELECT MIN(c.received_at) - o.created_at AS wait
    FROM sms_orders o JOIN sms_order_codes c ON c.order_id = o.id
    WHERE o.provider = ${provider} AND o.service_id = ${serviceId} AND o.created_at >= ${now - 30 * 24 * 3_600_000}
      AND o.user_id NOT LIKE 'sbx_%'
    GROUP BY o.id ORDER BY wait`);
  if (rows.length < TYPICAL_WAIT_MIN_SAMPLE) return null;
  const mid = Math.floor(rows.length / 2);
  const ms = rows.length % 2 ? rows[mid].wait : (rows[mid - 1].wait + rows[mid].wait) / 2;
  return Math.max(1, Math.round(ms / 1000));
}

/** What the confirm step says before the click: the price now, the typical wait, and when the refund comes. */
export async function useAgainQuote(deps: SmsDeps, user: SignedInUser, orderId: string): Promise<SmsUseAgainQuote> {
  const order = await eligibleOrder(deps, user.id, orderId);
  const { priceKobo } = await priceFor(deps, user, order);
  return {
    request_id: order.id,
    number: order.number!,
    service: order.serviceName,
    country: order.countryName,
    price: koboToNaira(priceKobo),
    typical_wait_seconds: await typicalWaitSeconds(deps.db, order.provider, order.serviceId, deps.clock.now()),
    refund_after_seconds: (await smsHoldTime(deps.db)).seconds,
  };
}

/** Takes the past order's number again: a new order, debited in one batch with its row, refunded if the upstream says no. */
export async function useNumberAgain(deps: SmsDeps, user: SignedInUser, input: SmsUseAgainInput): Promise<SmsGetNumberResponse> {
  const past = await eligibleOrder(deps, user.id, input.request_id);
  const reactivate = reactivatorOf(deps, past)!;
  const { offer, countryName, priceKobo } = await priceFor(deps, user, past);
  assertNotAboveShown(priceKobo, input.price);

  const db = deps.db;
  const now = deps.clock.now();
  const order = newOrder({ id: crypto.randomUUID(), userId: user.id, provider: providerOf(past), countryId: past.countryId, countryName, offer, priceKobo, now }, null);
  // Written as a purchase is (sms-orders.ts writePaidOrder): its own debit, only if the order row was written.
  await writePaidOrder(db, user.id, order, { priceKobo, note: `${purchaseNote(order)}, number used again`, now });

  // A refusal (BAD_ID, price, no money upstream) refunds this order at once and answers the customer's error.
  const activation = await reserveNumber(deps, order, offer, { reuse: { from: past, take: (maxCost) => reactivate(past.upstreamId!, { maxCost }) } });
  return {
    phone: { request_id: order.id, number: activation.number },
    table: { purchased_number: activation.number, sms: null, reference_code: order.id },
    debitRef: `buy:${order.id}`,
    price: koboToNaira(priceKobo),
    ...chargedBelowShown(priceKobo, input.price),
  };
}
