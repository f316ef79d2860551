import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SMS_CHAIN_STATUSES, SMS_ORDER_STATUSES } from "../../../schema/constants";
import { now, users } from "../kernel/tables";

/**
 * The sms room's tables: orders, chains, the codes of each order, favourites, the upstreams' health.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/** Receive-SMS orders. id is public (the spec's request_id / reference_code); the upstream id stays internal. */
export const smsOrders = sqliteTable(
  "sms_orders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    provider: text("provider").notNull(),
    countryId: text("country_id").notNull(),
    countryName: text("country_name").notNull(),
    serviceId: text("service_id").notNull(),
    serviceName: text("service_name").notNull(),
    priceKobo: integer("price_kobo").notNull(),
    upstreamId: text("upstream_id"),
    number: text("number"),
    // The latest code; every code received is in sms_order_codes.
    code: text("code"),
    // "Request another code": when the customer asked (null: not waiting for another), and until when the upstream
    // activation stays open for it (set when the first code arrives; the poller completes it upstream then).
    anotherCodeRequestedAt: integer("another_code_requested_at"),
    activationClosesAt: integer("activation_closes_at"),
    // pending (debited, upstream not yet asked) -> waiting -> used | timeout | error | cancelled | failed
    status: text("status", { enum: SMS_ORDER_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    failureReason: text("failure_reason"),
    // "Code or next route" (sms_chains): which chain the order is a route of, and its place in it (1 = the first).
    chainId: text("chain_id"),
    chainStep: integer("chain_step"),
    // Issue 32: which upstream served the order (daisysms, smsman, herosms, grizzly; null: the provider's primary, as
    // before routing existed) and which of its accounts (issue 30's key pool; 0 is the first key). Operators see it;
    // customers see only the provider.
    upstream: text("upstream"),
    upstreamAccount: integer("upstream_account").notNull().default(0),
    // Issue 49: the number the customer asked for, as JSON {carriers?, areas?, operator?} in the upstreams' own terms
    // (providers/sms/types.ts NumberChoice); null: any number. Routing sends it only to upstreams that honour it, and
    // a chain's next routes keep it.
    numberChoice: text("number_choice"),
    // Issue 46 (docs/decisions/072): bought as a reseller's sub-account with a markup, the part of price_kobo that is
    // the reseller's margin and the reseller it goes to (credited by the code move, reversed by refundKept).
    marginKobo: integer("margin_kobo").notNull().default(0),
    marginUserId: text("margin_user_id"),
    // Issue 46 (docs/decisions/075): bought through the API with a developer's `ref`, the developer's share of our price
    // and the wallet it goes to (the developer's, or its sandbox wallet for a test key's order): credited by the code
    // move, reversed by refundKept. Paid from our revenue: price_kobo does not include it.
    refShareKobo: integer("ref_share_kobo").notNull().default(0),
    refUserId: text("ref_user_id"),
    // An operator refunded this order after its code came (status stays 'used', the money went back): when.
    keptRefundedAt: integer("kept_refunded_at"),
    // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
    // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
    moveId: text("move_id"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    index("sms_orders_user_idx").on(t.userId, t.createdAt),
    // Slots in use per upstream account (waiting orders), and routing's recent outcomes per upstream.
    index("sms_orders_upstream_slots_idx").on(t.upstream, t.upstreamAccount, t.status),
    // One order per place in a chain: two ticks moving on at once cannot both buy the next route.
    uniqueIndex("sms_orders_chain_step_unique").on(t.chainId, t.chainStep),
    index("sms_orders_status_idx").on(t.status),
    // A pushed code names the upstream's activation id (routes/webhooks.ts).
    index("sms_orders_upstream_idx").on(t.provider, t.upstreamId),
  ],
);

/**
 * "If no code comes, try another number" (issue 17, docs/decisions/022): one row per purchase that may move on. Each
 * route is its own sms_orders row (chain_id, chain_step) with its own buy:<id> debit and refund:<id>; at most one of
 * them holds money at a time, because the next is bought only after the previous one ended refunded.
 */
export const smsChains = sqliteTable("sms_chains", {
  // The first order's id.
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id),
  serviceName: text("service_name").notNull(),
  // The customer's naira ceiling for every further route, in kobo.
  capKobo: integer("cap_kobo").notNull(),
  // The routes the customer allowed, JSON ["Swift:5", "Dynamic:12"]; [] allows every route selling the service.
  routes: text("routes").notNull().default("[]"),
  maxRoutes: integer("max_routes").notNull(),
  // active (a route is live or being bought) -> ended (a code came, or no route is left) | cancelled (by the customer)
  status: text("status", { enum: SMS_CHAIN_STATUSES }).notNull().default("active"),
  currentOrderId: text("current_order_id").notNull(),
  endReason: text("end_reason"),
  // Issue 46 (decision 076): started by a reseller's sub-account with a markup, the rate its first number carried (basis
  // points) and the wallet the margin goes to, so every further number is priced and margined like the first.
  markupBasisPoints: integer("markup_basis_points").notNull().default(0),
  marginUserId: text("margin_user_id"),
  // The id of the declared move that last wrote this row (services/kernel/money-entity.ts): its ledger row and event
  // are written only while the row holds it, so "this batch moved it" is a fact here, not a timestamp match.
  moveId: text("move_id"),
  createdAt: integer("created_at").notNull().default(now),
  updatedAt: integer("updated_at").notNull().default(now),
});

/**
 * A customer's starred Receive-SMS services (issue 17 "favourites"): shown first in the service list, kept on the
 * server so every device of the account sees the same stars. Per provider, since each names its services its own way.
 */
export const smsFavourites = sqliteTable(
  "sms_favourites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    serviceId: text("service_id").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider, t.serviceId] })],
);

/**
 * Each upstream's health as the cron sweep last read it (services/upstream-health.ts): our balance there, in its own
 * currency and in dollars, against the operator's floor. status: ok | low (hidden from customers) | unreachable.
 */
export const upstreamHealth = sqliteTable("upstream_health", {
  provider: text("provider").primaryKey(),
  status: text("status", { enum: ["ok", "low", "unreachable"] }).notNull(),
  balance: real("balance"),
  currency: text("currency"),
  balanceUsd: real("balance_usd"),
  floorUsd: real("floor_usd").notNull(),
  detail: text("detail"),
  checkedAt: integer("checked_at").notNull().default(now),
});

/** Every code an SMS order received (the first, and each one after "request another code"). */
export const smsOrderCodes = sqliteTable(
  "sms_order_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull().references(() => smsOrders.id),
    code: text("code").notNull(),
    receivedAt: integer("received_at").notNull(),
    // The whole SMS where the upstream gives it (issue 28: DaisySMS does, sms-man gives only the code): null then.
    text: text("text"),
  },
  (t) => [uniqueIndex("sms_order_codes_unique").on(t.orderId, t.code)],
);
