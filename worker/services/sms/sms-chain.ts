import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { koboToNaira, nairaToKobo } from "../../../schema/money";
import { MAX_CHAIN_ROUTES, type SmsChainState, type SmsGetNumberInput } from "../../../schema/sms";
import { type SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { smsChains, smsOrders } from "./tables";
import { buyerOf, marginAtKobo, moneyEntity, move, type MoveEvent, type MoveStep, type OutboxMessage, type SmsCatalogueDeps, type SmsDeps, transition } from "../kernel";
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
 *  - the old route's refund, the next route's order row, its debit, the chain's pointer (or the chain's end) and the
 *    old route's sms.ended are one batch guarded by the chain still being active and on the old order, and
 *    (chain_id, chain_step) is unique, so two ticks (or a tick and the sweep) cannot both buy the next route, and the
 *    event naming the next order is written with the money;
 *  - a cancel flips the chain to 'cancelled' before it touches the live order, and the move-on re-reads the chain
 *    after every await, so a cancel during a switch stops the switch (or releases the number it just bought).
 */

export type SmsChain = typeof smsChains.$inferSelect;

/** A route's sms.ended, as the chain tells it (the order the chain moved on to, when it did). */
export type RouteEnded = Extract<OutboxMessage, { kind: "sms.ended" }>;

interface ChainMove {
  /** The route the chain is on (its compare-and-set). */
  from: string;
  /** The route that ended without a code, told in this move's batch: what is said, or null (told already). */
  ended: RouteEnded | null;
  userId: string;
}

const routeEndedEvent = (i: ChainMove): MoveEvent | null => (i.ended ? { userId: i.userId, dedupe: `sms.ended:${i.ended.orderId}`, message: i.ended } : null);

/**
 * The chain as a money entity (docs/decisions/049, 062): the only module that writes sms_chains. The chain moves no
 * money of its own (each route's debit and refund are its order's, sms-transitions.ts), but its moves tell the
 * route's end: a route that ended without a code is refunded, and the next route is bought or the chain ends, in ONE
 * batch with the route's sms.ended (sms-orders.ts moveChainOn), so the event that names the next order is written with
 * the money that moved, never after it.
 */
export const smsChain = moneyEntity(
  { name: "SMS chain", table: smsChains, id: "id", status: "status" },
  {
    /** Written with the first order and its debit, only if that order was (sms-orders.ts writePaidOrder). */
    start: { from: "new", to: "active", values: (i: { row: Omit<NewChain, "status"> }) => i.row },
    /** The next route's order was bought in this batch: the chain points at it, the ended route's sms.ended names it. */
    moveOn: {
      from: ["active"],
      to: null,
      claim: (i: ChainMove & { next: string }) => eq(smsChains.currentOrderId, i.from),
      set: (i: ChainMove & { next: string }, at) => ({ currentOrderId: i.next, updatedAt: at }),
      event: routeEndedEvent,
    },
    /** A code came, or no route is left (cap, price, wallet, routes): the last route's sms.ended, if not told yet. */
    end: {
      from: ["active"],
      to: "ended",
      claim: (i: ChainMove & { reason: string }) => eq(smsChains.currentOrderId, i.from),
      set: (i: ChainMove & { reason: string }, at) => ({ endReason: i.reason.slice(0, 200), updatedAt: at }),
      event: routeEndedEvent,
    },
    /** The customer cancelled: the chain stops before its live route is cancelled; between routes it tells the end. */
    cancel: {
      from: ["active"],
      to: "cancelled",
      set: (i: ChainMove & { reason: string }, at) => ({ endReason: i.reason.slice(0, 200), updatedAt: at }),
      // Its own key: the route's own end (a number being bought when the cancel came) may still be told after it.
      event: (i: ChainMove & { reason: string }) => (i.ended ? { userId: i.userId, dedupe: `sms.ended:${i.ended.orderId}:chain-cancelled`, message: i.ended } : null),
    },
  },
);

type NewChain = typeof smsChains.$inferInsert;

/** The chain is active and its live route is `orderId` (a guard for another row's statement in the same batch). */
export function chainStillOn(chainId: string, orderId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${smsChains} WHERE ${smsChains.id} = ${chainId} AND ${smsChains.status} = 'active' AND ${smsChains.currentOrderId} = ${orderId})`;
}

/** The chain row written in the same batch as the first order and its debit (only if that order was). */
export function startChain(db: Db, orderId: string, userId: string, serviceName: string, nextRoute: NonNullable<SmsGetNumberInput["next_route"]>, at: number, when: SQL, markup: ChainMarkup | null = null): MoveStep {
  return move(db, smsChain.start, orderId, { row: { ...newChainValues(orderId, userId, serviceName, nextRoute, at), ...(markup ? { markupBasisPoints: markup.basisPoints, marginUserId: markup.userId } : {}) } }, at, { when });
}

/**
 * Issue 46 (decision 076): a chain started by a reseller's sub-account records the markup its first number carried
 * (the rate for that service, and the wallet the margin goes to), since the move-on runs with no caller: each further
 * number is priced (and held to the cap) and margined like the first.
 */
export interface ChainMarkup {
  basisPoints: number;
  userId: string;
}

type ChainOrder = Pick<typeof smsOrders.$inferSelect, "id" | "userId" | "provider" | "countryId" | "serviceId" | "chainId" | "chainStep">;

export interface NextRoute {
  provider: SmsProviderName;
  country: string;
  service: string;
  /** Naira, the customer's own price for it now (with the chain's markup, decision 076). */
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
export async function nextRoutes(catalogue: SmsCatalogueDeps, db: Db, chain: SmsChain, from: ChainOrder, tried: Set<string>, now: number): Promise<NextRoute[]> {
  const user = { id: chain.userId, ...(await buyerOf(db, chain.userId)) };
  const provider = from.provider === "Dynamic" ? "Dynamic" : "Swift";
  const compared = await compareRoutes(catalogue, user, provider, from.serviceId, now);
  const allowed = new Set(JSON.parse(chain.routes) as string[]);
  // A sub-account's chain holds the marked-up price (what it pays) to the cap.
  const priced = compared.routes.map((r) => {
    const kobo = nairaToKobo(r.price);
    return { ...r, price: koboToNaira(kobo + marginAtKobo(kobo, chain.markupBasisPoints)) };
  });
  const cap = koboToNaira(chain.capKobo);
  return priced
    .filter((r) => r.count > 0 && r.price <= cap && !tried.has(routeKey(r.provider, r.country_id)))
    .filter((r) => allowed.size === 0 || allowed.has(routeKey(r.provider, r.country_id)))
    .sort((a, b) => a.price - b.price || (b.stats?.success_rate ?? 0) - (a.stats?.success_rate ?? 0))
    .map((r) => ({ provider: r.provider, country: r.country_id, service: r.service_id, price: r.price }));
}

/**
 * `end`: ends an active chain still on the route `from` (a code came, no route is left), telling the route's end when
 * `ended` says it. Returns whether this call ended it.
 */
export async function endChain(deps: Pick<SmsDeps, "db" | "clock">, chain: { id: string; userId: string }, from: string, reason: string, ended: RouteEnded | null = null): Promise<boolean> {
  return (await transition(deps.db, smsChain.end, chain.id, { from, reason, ended, userId: chain.userId }, deps.clock.now())).moved;
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
