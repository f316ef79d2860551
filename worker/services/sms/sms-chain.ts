import { and, asc, eq, sql } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { MAX_CHAIN_ROUTES, type SmsChainState, type SmsGetNumberInput } from "../../../schema/sms";
import { type SmsChainStatus, type SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { smsChains, smsOrders, users } from "../../db/tables";
import type { OutboxMessage, SmsCatalogueDeps, SmsDeps } from "../kernel";
import { compareRoutes } from "./sms-choice";

/**
 * "Code or next route" (issue 17, docs/decisions/022-code-or-next-route.md): the chain's own rows and choices. The
 * order's life stays in services/sms-orders.ts (buying, cancel, the move-on's purchase) and sms-poll.ts (polling,
 * refunds, the sweep), which call in here; this module never buys or moves money itself.
 *
 * The rules that make "charged once for the route that delivered" hold by construction:
 *  - each route is its own sms_orders row with its own buy:<id> debit and refund:<id> (the one money path);
 *  - the chain moves on only from an order that has ended refunded (timeout, error, failed), never from a live one,
 *    so at most one route holds the customer's money at a time, and a code can only come to that one;
 *  - the next route's order row, its debit and the chain's pointer are one batch guarded by the chain still being
 *    active and on the old order, and (chain_id, chain_step) is unique, so two ticks (or a tick and the sweep) cannot
 *    both buy the next route;
 *  - a cancel flips the chain to 'cancelled' before it touches the live order, and the move-on re-reads the chain
 *    after every await, so a cancel during a switch stops the switch (or releases the number it just bought).
 */

export type SmsChain = typeof smsChains.$inferSelect;

/**
 * The chain as a money entity (docs/decisions/049): every way its row moves after the first order's purchase batch
 * inserts it, with the ledger row and the events the move's batch writes. This module is the only writer of
 * sms_chains (scripts/money-writers.ts refuses `update(smsChains)` and raw `UPDATE sms_chains` elsewhere); the chain
 * moves no money itself: each route's debit and refund are its own order's (sms-transitions.ts).
 */
export const SMS_CHAIN_TRANSITIONS = {
  /**
   * The route that ended refunded without a code hands over to the next one: in one batch with the next order's row
   * and its buy:<next> debit (sms-orders.ts placeNextRoute), and the ended route's sms.ended naming the next order.
   */
  moveOn: { from: ["active"], to: "active", ledger: "buy:<next order> (the next route's own debit)", events: ["sms.ended"] },
  /** A code came, or no route is left (cap, price, wallet, routes): the last route's sms.ended is told after it. */
  end: { from: ["active"], to: "ended", ledger: null, events: [] },
  /** The customer cancelled a route: the chain stops before its live order is cancelled (that order tells its end). */
  cancel: { from: ["active"], to: "cancelled", ledger: null, events: [] },
} as const satisfies Record<string, { from: readonly SmsChainStatus[]; to: SmsChainStatus; ledger: string | null; events: readonly OutboxMessage["kind"][] }>;

/**
 * `moveOn`'s statement: the chain points at the next order, only while it is active and still on `fromOrderId` (the
 * same guard as the next order's insert in the batch, so a cancel or a second tick stops all three).
 */
export function chainMoveOn(db: Db, chainId: string, fromOrderId: string, nextOrderId: string, at: number) {
  return db.update(smsChains).set({ currentOrderId: nextOrderId, updatedAt: at }).where(chainStillOn(chainId, fromOrderId));
}

/** The chain is active and its live route is `orderId`. */
export function chainStillOn(chainId: string, orderId: string) {
  return and(eq(smsChains.id, chainId), eq(smsChains.status, "active"), eq(smsChains.currentOrderId, orderId));
}
type ChainOrder = Pick<typeof smsOrders.$inferSelect, "id" | "userId" | "provider" | "countryId" | "serviceId" | "chainId" | "chainStep">;

export interface NextRoute {
  provider: SmsProviderName;
  country: string;
  service: string;
  /** Naira, the customer's own price for it now. */
  price: number;
}

export function routeKey(provider: string, country: string): string {
  return `${provider}:${country}`;
}

/** The chain row written in the same batch as the first order and its debit. */
export function newChainValues(orderId: string, userId: string, serviceName: string, nextRoute: NonNullable<SmsGetNumberInput["next_route"]>, now: number) {
  const routes = [...new Set((nextRoute.routes ?? []).map((r) => routeKey(r.provider, r.country)))];
  return {
    id: orderId,
    userId,
    serviceName,
    capKobo: nairaToKobo(nextRoute.cap),
    routes: JSON.stringify(routes),
    maxRoutes: MAX_CHAIN_ROUTES,
    status: "active" as const,
    currentOrderId: orderId,
    endReason: null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function readChain(db: Db, chainId: string): Promise<SmsChain | undefined> {
  const [row] = await db.select().from(smsChains).where(eq(smsChains.id, chainId)).limit(1);
  return row;
}

/** The routes of a chain, in order (what the chain tried). */
export async function chainOrders(db: Db, chainId: string) {
  return db
    .select({ id: smsOrders.id, provider: smsOrders.provider, countryId: smsOrders.countryId, status: smsOrders.status, chainStep: smsOrders.chainStep, upstream: smsOrders.upstream })
    .from(smsOrders)
    .where(eq(smsOrders.chainId, chainId))
    .orderBy(asc(smsOrders.chainStep));
}

/**
 * The next route to try after `tried`: every route selling the same service (matched by name, as the compare view
 * matches them), not tried yet, allowed by the customer, in stock, priced for this customer at most the cap; the
 * cheapest first (ties: the one with the better success rate from our own orders, when we have enough of them).
 */
export async function nextRoutes(catalogue: SmsCatalogueDeps, db: Db, chain: SmsChain, from: ChainOrder, tried: Set<string>): Promise<NextRoute[]> {
  const [user] = await db.select({ id: users.id, totalDepositedKobo: users.totalDepositedKobo }).from(users).where(eq(users.id, chain.userId)).limit(1);
  if (!user) return [];
  const provider = from.provider === "Dynamic" ? "Dynamic" : "Swift";
  const compared = await compareRoutes(catalogue, user, provider, from.serviceId);
  const allowed = new Set(JSON.parse(chain.routes) as string[]);
  const cap = koboToNaira(chain.capKobo);
  return compared.routes
    .filter((r) => r.count > 0 && r.price <= cap && !tried.has(routeKey(r.provider, r.country_id)))
    .filter((r) => allowed.size === 0 || allowed.has(routeKey(r.provider, r.country_id)))
    .sort((a, b) => a.price - b.price || (b.stats?.success_rate ?? 0) - (a.stats?.success_rate ?? 0))
    .map((r) => ({ provider: r.provider, country: r.country_id, service: r.service_id, price: r.price }));
}

/** `end` or `cancel`: ends an active chain (a code came, no route is left, the customer cancelled). Returns whether this call ended it. */
export async function endChain(deps: Pick<SmsDeps, "db" | "clock">, chainId: string, status: Exclude<SmsChainStatus, "active">, reason: string): Promise<boolean> {
  const [ended] = await deps.db
    .update(smsChains)
    .set({ status, endReason: reason.slice(0, 200), updatedAt: deps.clock.now() })
    .where(and(eq(smsChains.id, chainId), eq(smsChains.status, "active")))
    .returning({ id: smsChains.id });
  return Boolean(ended);
}

/** What the status answer says about an order's chain. */
export async function chainStateFor(db: Db, order: ChainOrder & { status: string }): Promise<SmsChainState | null> {
  if (!order.chainId || order.chainStep === null) return null;
  const chain = await readChain(db, order.chainId);
  if (!chain) return null;
  const [next] = await db
    .select({ id: smsOrders.id })
    .from(smsOrders)
    .where(and(eq(smsOrders.chainId, chain.id), eq(smsOrders.chainStep, order.chainStep + 1)))
    .limit(1);
  return {
    id: chain.id,
    step: order.chainStep,
    max_routes: chain.maxRoutes,
    cap: koboToNaira(chain.capKobo),
    status: chain.status,
    next_request_id: next?.id ?? null,
    // No next order yet, the chain still active, and this one over (or the claim already made): the switch is under way.
    moving_on: !next && chain.status === "active" && (chain.currentOrderId !== order.id || isRefundedEnd(order.status)),
  };
}

function isRefundedEnd(status: string): boolean {
  return status === "timeout" || status === "error" || status === "failed";
}

/** Active chains whose current order ended refunded a while ago: their move-on was interrupted (the sweep resumes it). */
export async function stalledChains(db: Db, olderThan: number): Promise<{ chainId: string; orderId: string }[]> {
  const rows = await db
    .select({ chainId: smsChains.id, orderId: smsOrders.id })
    .from(smsChains)
    .innerJoin(smsOrders, eq(smsOrders.id, smsChains.currentOrderId))
    .where(and(eq(smsChains.status, "active"), sql`${smsOrders.status} IN ('timeout', 'error', 'failed')`, sql`${smsOrders.updatedAt} < ${olderThan}`))
    .limit(20);
  return rows;
}
