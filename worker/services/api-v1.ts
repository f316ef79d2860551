import { and, eq, lt } from "drizzle-orm";
import type { z } from "zod";
import type { v1SmsOrderSchema } from "../../schema/api-v1";
import { koboToNaira } from "../../schema/money";
import type { SmsProviderName } from "../../schema/constants";
import type { Db } from "../db/client";
import { idempotencyKeys, smsOrders } from "../db/tables";
import { isUniqueViolation } from "../lib/errors";
import type { SignedInUser } from "./sessions";
import { pricingContext, smsPriceKobo } from "./pricing";
import { envForUser } from "./sandbox-accounts";
import { findSmsOffer } from "./sms-catalogue";
import { chainStateFor } from "./sms-chain";
import type { SmsDeps } from "./deps";
import { canRequestAnotherCode, orderCodes, ownSmsOrder } from "./sms-orders";

const REFUNDED = new Set(["timeout", "error", "cancelled", "failed"]);

/** What the caller would pay for one number now (the price buySmsNumber charges), in kobo. */
export async function smsQuoteKobo(deps: SmsDeps, user: SignedInUser, provider: SmsProviderName, country: string, service: string): Promise<number> {
  const { offer } = await findSmsOffer(envForUser(deps.env, user.id), provider, country, service);
  return smsPriceKobo(offer.costUsd, await pricingContext(deps.db, user.totalDepositedKobo));
}

export async function smsOrderV1(deps: SmsDeps, userId: string, orderId: string): Promise<z.infer<typeof v1SmsOrderSchema>> {
  const db = deps.db;
  const o: typeof smsOrders.$inferSelect = await ownSmsOrder(db, userId, orderId);
  const codes = await orderCodes(db, o.id);
  const chain = await chainStateFor(db, o);
  return {
    id: o.id,
    status: o.status,
    provider: o.provider,
    country_id: o.countryId,
    country: o.countryName,
    service_id: o.serviceId,
    service: o.serviceName,
    number: o.number,
    price: koboToNaira(o.priceKobo),
    code: o.code,
    codes: codes.length > 0 || !o.code ? codes : [o.code],
    refunded: REFUNDED.has(o.status),
    waiting_for_another_code: o.anotherCodeRequestedAt !== null,
    can_request_another_code: canRequestAnotherCode(o, deps.clock.now()),
    // The web's status names the next order `next_request_id` (the spec's word); the v1 API calls orders `id`.
    chain: chain ? { id: chain.id, step: chain.step, max_routes: chain.max_routes, cap: chain.cap, status: chain.status, next_order_id: chain.next_request_id, moving_on: chain.moving_on } : null,
    created_at: new Date(o.createdAt).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Idempotency-Key (POST /api/v1/*)

export type IdempotencyClaim =
  | { kind: "first" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "mismatch" }
  | { kind: "in_flight"; abandoned: boolean };

/**
 * An answer not stored after this long means its request died mid-way (the isolate was evicted, the upstream hung past
 * every timeout): whether it charged is unknown, so the key can never safely run again. A repeat is told so at once
 * instead of "still running" until the key is forgotten a day later.
 */
export const IDEMPOTENCY_IN_FLIGHT_MS = 60_000;
/** Keys are remembered this long (the sweep forgets older ones). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Claims (apiKeyId, key) for this request. The unique index decides a race: exactly one of any number of concurrent
 * identical requests is "first" and runs; the others see its row.
 */
export async function claimIdempotencyKey(db: Db, apiKeyId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  try {
    await db.insert(idempotencyKeys).values({ apiKeyId, key, requestHash, createdAt: Date.now() });
    return { kind: "first" };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  return readIdempotencyKey(db, apiKeyId, key, requestHash);
}

export async function readIdempotencyKey(db: Db, apiKeyId: string, key: string, requestHash: string, now = Date.now()): Promise<IdempotencyClaim> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!row) return { kind: "in_flight", abandoned: false };
  if (row.requestHash !== requestHash) return { kind: "mismatch" };
  if (row.responseStatus === null || row.responseBody === null) {
    return { kind: "in_flight", abandoned: now - row.createdAt > IDEMPOTENCY_IN_FLIGHT_MS };
  }
  return { kind: "replay", status: row.responseStatus, body: row.responseBody };
}

export async function storeIdempotentAnswer(db: Db, apiKeyId: string, key: string, status: number, body: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
}

export async function purgeIdempotencyKeys(db: Db, now = Date.now()): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS));
}
