import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { declaredEntities, type Move, move, runBatch, transition } from "../../services/kernel";
import { payment, queueDecision, reviewItem, transferDeposit, withdrawal } from "../../services/funding";
import { sql } from "drizzle-orm";
import { smsChain, smsOrder } from "../../services/sms";
import { rental } from "../../services/rent";
import { subaccount, subaccountTransfer } from "../../services/resellers";
import { paymentReviews, payments, rentalMessages, rentals, smsChains, smsOrders, subaccounts, subaccountTransfers, transferDeposits, users, withdrawals } from "../../db/tables";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { createUser, db, expectLedgerBalanced } from "../helpers";

/**
 * Issue 42: every move a money entity declares is walked here at least once, through the one kernel transition: from a
 * status it may leave to the one it names, with the ledger row and the outbox event it declares written in the same
 * batch, and nothing written when the row is not in a status it may leave. The declarations are what runs
 * (services/kernel/money-entity.ts), so a move added without a case here fails the last test.
 */

const AT = 1_800_000_000_000;
const walked = new Set<string>();

type Row = Record<string, unknown>;
interface Case {
  /** Writes the row the move starts from (by hand, as tests may) and answers its id and the move's input. */
  setup: (userId: string) => Promise<{ id: string; input: unknown }>;
  /** A status the move may not leave, to show it writes nothing there (none for "any" and "new" moves). */
  refusedFrom?: string;
}

const uid = () => crypto.randomUUID();
const statusOf = async (table: string, idColumn: string, id: string) =>
  (await env.DB.prepare(`SELECT * FROM ${table} WHERE ${idColumn} = ?`).bind(id).first<Row>()) ?? null;
// Counted over every wallet: a move may write rows for two (a kept order's refund and its reseller's margin reversal).
const ledgerCount = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger").first<{ n: number }>())!.n;
const eventCount = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events").first<{ n: number }>())!.n;
/** A declaration's rows: one, several (null ones left out) or none. */
const declaredRows = (x: unknown): unknown[] => (Array.isArray(x) ? x : [x]).filter((r) => r !== null && r !== undefined);

async function order(userId: string, fields: Partial<typeof smsOrders.$inferInsert> = {}) {
  const id = uid();
  await db().insert(smsOrders).values({ id, userId, provider: "Swift", countryId: "5", countryName: "USA", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 10_000, number: "15550001", upstreamId: `up-${id}`, status: "waiting", createdAt: AT, updatedAt: AT, ...fields });
  return id;
}
async function chain(userId: string, fields: Partial<typeof smsChains.$inferInsert> = {}) {
  const id = await order(userId, { status: "timeout" });
  await db().insert(smsChains).values({ id, userId, serviceName: "WhatsApp", capKobo: 100_000, maxRoutes: 3, status: "active", currentOrderId: id, createdAt: AT, updatedAt: AT, ...fields });
  return id;
}
async function rentalRow(userId: string, fields: Partial<typeof rentals.$inferInsert> = {}) {
  const id = uid();
  await db().insert(rentals).values({ id, userId, provider: "Swift", countryId: "5", countryName: "USA", unit: "day", period: 1, priceKobo: 20_000, status: "active", expiresAt: AT + 86_400_000, createdAt: AT, updatedAt: AT, ...fields });
  return id;
}
async function paymentRow(userId: string, fields: Partial<typeof payments.$inferInsert> = {}) {
  const id = `PT${uid().replaceAll("-", "")}`;
  await db().insert(payments).values({ id, userId, provider: "squad", status: "pending", amountKobo: 50_000, currency: "NGN", createdAt: AT, updatedAt: AT, ...fields });
  return id;
}
async function depositRow(userId: string, fields: Partial<typeof transferDeposits.$inferInsert> = {}) {
  const squadRef = `SQ${uid()}`;
  await db().insert(transferDeposits).values({ squadRef, kind: "dynamic", userId, amountKobo: 50_000, squadStatus: "SUCCESS", state: "verifying", receivedAt: AT, updatedAt: AT, ...fields });
  return squadRef;
}
async function withdrawalRow(userId: string, status: (typeof withdrawals.$inferInsert)["status"]) {
  const id = `wd_${uid().replaceAll("-", "").slice(0, 24)}`;
  await db().insert(withdrawals).values({ id, ...withdrawalFields(userId, id), status });
  return id;
}
const withdrawalFields = (userId: string, id: string) => ({ userId, amountKobo: 150_000, feeKobo: 0, bankCode: "000013", accountNumber: "0123456789", accountName: "ADA OBI", reference: `SBSANDBOX_${id}`, createdAt: AT, updatedAt: AT });
const wdTold = (u: string, id: string) => ({ userId: u, id, row: withdrawalFields(u, id) });
/** A reseller's sub-account wallet (and, unless `walletOnly`, its sub-account row) under `parentId`. */
async function subaccountRow(parentId: string, status: "active" | "frozen" | "closed" = "active", walletOnly = false) {
  const id = `sub_${uid().replaceAll("-", "")}`;
  await db().insert(users).values({ id, username: "walked", email: `${id}@subaccount.invalid`, phone: "", passwordHash: "!", referralCode: `W${id.slice(4, 14)}`, parentUserId: parentId });
  if (!walletOnly) await db().insert(subaccounts).values({ id, parentUserId: parentId, externalId: id, name: "walked", status, createdAt: AT });
  return id;
}
const transferOf = (id: string, parentUserId: string, subaccountId: string, direction: "in" | "out") => ({ id, parentUserId, subaccountId, direction, reason: "transfer" as const, amountKobo: 1_000, idempotencyKey: id, label: "walked" });
async function sentTransfer(parentId: string) {
  const subId = await subaccountRow(parentId);
  const id = `str_${uid()}`;
  // A transfer out whose debit was made (the sub-account's money, seeded by hand): its arrival credits the parent.
  await db().insert(subaccountTransfers).values({ id, parentUserId: parentId, subaccountId: subId, direction: "out", reason: "transfer", amountKobo: 1_000, idempotencyKey: id, status: "sent", createdAt: AT });
  return { id, input: transferOf(id, parentId, subId, "out") };
}

async function reviewRow(userId: string, status: "open" | "credited" = "open") {
  const paymentId = await paymentRow(userId, { status: "review" });
  const id = `rv_${uid().replaceAll("-", "")}`;
  await db().insert(paymentReviews).values({ id, paymentId, userId, provider: "squad", providerPaymentId: paymentId, reason: "card_amount_mismatch", status, createdAt: AT, updatedAt: AT });
  return { id, paymentId };
}

const smsEnded = (orderId: string, status: "timeout" | "error" | "cancelled") => ({ kind: "sms.ended" as const, orderId, status, refunded: true, message: "ended" });
const ended = (id: string, userId: string) => ({ order: { id, userId, priceKobo: 10_000, serviceName: "WhatsApp", countryName: "USA" }, reason: "walked", told: smsEnded(id, "timeout") });
const credit = (userId: string, paymentId: string, channel: "squad" | "transfer" | "review" = "squad", keyId = paymentId) => ({
  userId,
  paymentId,
  publicId: paymentId,
  channel,
  keyId,
  amountKobo: 50_000,
  note: "Wallet deposit (walked)",
});
const rentalOf = (id: string, userId: string) => ({ id, userId, priceKobo: 20_000, countryName: "USA", unit: "day" as const, period: 1 });
const charge = (id: string, userId: string, key: string) => ({ row: rentalOf(id, userId), key, kobo: 5_000, note: "walked charge" });
const told = (userId: string, publicId: string) => ({ userId, publicId, message: "walked" });
const decision = (itemId: string, kind: "card" | "transfer") => ({ itemId, kind, amountKobo: null, operatorId: "op", note: "walked" });

const CASES: Record<string, Record<string, Case>> = {
  "SMS order": {
    buy: {
      setup: async (u) => {
        const id = uid();
        return { id, input: { row: { id, userId: u, provider: "Swift", countryId: "5", countryName: "USA", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 10_000, createdAt: AT, updatedAt: AT }, note: "walked" } };
      },
    },
    reserve: { setup: async (u) => ({ id: await order(u, { status: "pending" }), input: { upstreamId: "u1", number: "1555", upstream: "daisysms", upstreamAccount: 0, attempts: 0 } }), refusedFrom: "waiting" },
    countPoll: { setup: async (u) => ({ id: await order(u), input: { from: 0, to: 1 } }), refusedFrom: "used" },
    // Bought as a reseller's sub-account with a markup and a developer's ref (issue 46): the code credits the margin to
    // the reseller and the share to the developer (decision 075), two wallets' credits in one move.
    code: {
      setup: async (u) => {
        const [reseller, developer] = [(await createUser()).id, (await createUser()).id];
        const id = await order(u, { marginKobo: 1_500, marginUserId: reseller, refShareKobo: 500, refUserId: developer });
        return { id, input: { order: { id, userId: u, number: "1555", marginKobo: 1_500, marginUserId: reseller, refShareKobo: 500, refUserId: developer, serviceName: "WhatsApp" }, code: "123456", stored: "123456", closesAt: AT } };
      },
      refusedFrom: "timeout",
    },
    refundKept: {
      setup: async (u) => {
        // The developer's wallet holds its share, so the reversal (written only then) is one of the move's rows here.
        const [reseller, developer] = [(await createUser({ balanceKobo: 1_500 })).id, (await createUser({ balanceKobo: 500 })).id];
        const id = await order(u, { status: "used", marginKobo: 1_500, marginUserId: reseller, refShareKobo: 500, refUserId: developer });
        return { id, input: { order: { id, userId: u, priceKobo: 10_000, serviceName: "WhatsApp", countryName: "USA", marginKobo: 1_500, marginUserId: reseller, refShareKobo: 500, refUserId: developer }, reason: "walked" } };
      },
      refusedFrom: "waiting",
    },
    anotherCodeRequested: { setup: async (u) => ({ id: await order(u, { status: "used" }), input: {} }), refusedFrom: "waiting" },
    anotherCode: { setup: async (u) => { const id = await order(u, { status: "used", anotherCodeRequestedAt: AT }); return { id, input: { order: { id, userId: u, number: "1555" }, code: "654321", stored: "654321", closesAt: AT } }; }, refusedFrom: "waiting" },
    giveUpAnotherCode: { setup: async (u) => ({ id: await order(u, { status: "used", anotherCodeRequestedAt: AT }), input: { requestedAt: AT } }), refusedFrom: "waiting" },
    closeActivation: { setup: async (u) => ({ id: await order(u, { status: "used" }), input: {} }), refusedFrom: "waiting" },
    fail: { setup: async (u) => { const id = await order(u, { status: "pending" }); return { id, input: { ...ended(id, u), told: null } }; }, refusedFrom: "waiting" },
    timeout: { setup: async (u) => { const id = await order(u); return { id, input: ended(id, u) }; }, refusedFrom: "used" },
    error: { setup: async (u) => { const id = await order(u); return { id, input: ended(id, u) }; }, refusedFrom: "cancelled" },
    cancel: { setup: async (u) => { const id = await order(u); return { id, input: ended(id, u) }; }, refusedFrom: "pending" },
  },
  "SMS chain": {
    start: { setup: async (u) => { const id = await order(u, { status: "pending" }); return { id, input: { row: { id, userId: u, serviceName: "WhatsApp", capKobo: 100_000, routes: "[]", maxRoutes: 3, currentOrderId: id, createdAt: AT, updatedAt: AT } } }; } },
    moveOn: { setup: async (u) => { const id = await chain(u); return { id, input: { from: id, next: "next-order", ended: smsEnded(id, "timeout"), userId: u } }; }, refusedFrom: "ended" },
    end: { setup: async (u) => { const id = await chain(u); return { id, input: { from: id, reason: "walked", ended: smsEnded(id, "timeout"), userId: u } }; }, refusedFrom: "cancelled" },
    cancel: { setup: async (u) => { const id = await chain(u); return { id, input: { from: id, reason: "walked", ended: smsEnded(id, "cancelled"), userId: u } }; }, refusedFrom: "ended" },
  },
  rental: {
    rent: { setup: async (u) => { const id = uid(); return { id, input: { row: { id, userId: u, provider: "Swift", countryId: "5", countryName: "USA", unit: "day", period: 1, priceKobo: 20_000, createdAt: AT, updatedAt: AT }, note: "walked" } }; } },
    rented: { setup: async (u) => ({ id: await rentalRow(u, { status: "pending" }), input: { upstreamId: "r1", number: "1555", expiresAt: AT + 1000, upstream: "smsman", upstreamAccount: 0 } }), refusedFrom: "active" },
    fail: { setup: async (u) => { const id = await rentalRow(u, { status: "pending" }); return { id, input: { row: rentalOf(id, u), reason: "walked" } }; }, refusedFrom: "active" },
    // Rented as a reseller's sub-account with a markup and a developer's ref (issue 46, decisions 075, 076): ending it
    // credits the margin and the share.
    end: {
      setup: async (u) => {
        const reseller = (await createUser()).id;
        const developer = (await createUser()).id;
        const credits = { marginKobo: 2_000, marginUserId: reseller, refShareKobo: 900, refUserId: developer };
        const id = await rentalRow(u, credits);
        return { id, input: { row: { ...rentalOf(id, u), ...credits } } };
      },
      refusedFrom: "ended",
    },
    // A sub-account's rental with a markup and a ref cancelled in time: the refund only, no margin, no share.
    cancel: {
      setup: async (u) => {
        const reseller = (await createUser()).id;
        const developer = (await createUser()).id;
        const credits = { marginKobo: 2_000, marginUserId: reseller, refShareKobo: 900, refUserId: developer };
        const id = await rentalRow(u, credits);
        return { id, input: { row: { ...rentalOf(id, u), ...credits }, reason: "walked" } };
      },
      refusedFrom: "ended",
    },
    cancelAfterSms: {
      setup: async (u) => {
        const id = await rentalRow(u);
        await db().insert(rentalMessages).values({ rentalId: id, fingerprint: "f", sender: "S", text: "t", receivedAt: AT });
        // A sub-account's, with a markup and a ref: kept after an SMS, so the margin and the share are credited.
        const reseller = (await createUser()).id;
        const developer = (await createUser()).id;
        return { id, input: { row: { ...rentalOf(id, u), marginKobo: 2_000, marginUserId: reseller, refShareKobo: 900, refUserId: developer } } };
      },
      refusedFrom: "cancelled",
    },
    claimExtension: { setup: async (u) => { const id = await rentalRow(u); return { id, input: { ...charge(id, u, `rent_extend:${id}:1`), n: 1 } }; }, refusedFrom: "ended" },
    extended: { setup: async (u) => ({ id: await rentalRow(u), input: { byMs: 3_600_000 } }), refusedFrom: "ended" },
    refundExtension: { setup: async (u) => { const id = await rentalRow(u); return { id, input: charge(id, u, `rent_extend_refund:${id}:1`) }; } },
    claimRenewal: {
      setup: async (u) => {
        const id = await rentalRow(u, { autoRenewPriceKobo: 5_000 });
        return { id, input: { ...charge(id, u, `rent_renew:${id}:${AT + 86_400_000}`), expiry: AT + 86_400_000, agreedKobo: 5_000 } };
      },
      refusedFrom: "ended",
    },
    renewed: { setup: async (u) => ({ id: await rentalRow(u), input: { expiry: AT + 86_400_000, expiresAt: AT + 2 * 86_400_000 } }), refusedFrom: "ended" },
    refundRenewal: { setup: async (u) => { const id = await rentalRow(u); return { id, input: charge(id, u, `rent_renew_refund:${id}:1`) }; } },
    autoRenewOn: { setup: async (u) => ({ id: await rentalRow(u), input: { priceKobo: 5_000, unit: "day", period: 1 } }), refusedFrom: "ended" },
    autoRenewOff: { setup: async (u) => ({ id: await rentalRow(u, { autoRenewPriceKobo: 5_000 }), input: {} }) },
    pauseRenewal: { setup: async (u) => ({ id: await rentalRow(u, { autoRenewPriceKobo: 5_000 }), input: { why: "funds" } }) },
    remind: {
      setup: async (u) => {
        const id = await rentalRow(u);
        const told = { dedupe: `rental.renewing:${id}:walked`, message: { kind: "rental.renewing" as const, rentalId: id, renewsAt: new Date(AT).toISOString(), price: 50, funded: true } };
        return { id, input: { userId: u, column: "remindedDayAt", expiresAt: AT + 86_400_000, told } };
      },
      refusedFrom: "ended",
    },
    inboxRead: { setup: async (u) => { const id = await rentalRow(u); return { id, input: { rentalId: id, updatedAt: AT } }; } },
  },
  payment: {
    open: { setup: async (u) => { const id = `PO${uid().replaceAll("-", "")}`; return { id, input: { row: { id, userId: u, provider: "squad", amountKobo: 50_000, currency: "NGN", createdAt: AT, updatedAt: AT } } }; } },
    openArrival: { setup: async (u) => { const id = `PA${uid().replaceAll("-", "")}`; return { id, input: { row: { id, userId: u, provider: "squad_transfer", amountKobo: 50_000, currency: "NGN", createdAt: AT, updatedAt: AT } } }; } },
    opened: { setup: async (u) => ({ id: await paymentRow(u), input: { details: { checkoutUrl: "https://checkout.example/x" } } }), refusedFrom: "credited" },
    invoiced: { setup: async (u) => ({ id: await paymentRow(u, { provider: "nowpayments" }), input: { status: "waiting", details: { payAddress: "addr" } } }), refusedFrom: "failed" },
    openFailed: { setup: async (u) => ({ id: await paymentRow(u), input: {} }), refusedFrom: "credited" },
    advance: { setup: async (u) => { const id = await paymentRow(u, { provider: "nowpayments", status: "waiting" }); return { id, input: { paymentId: id, from: "waiting", to: "failed", told: told(u, id) } }; }, refusedFrom: "credited" },
    credit: { setup: async (u) => { const id = await paymentRow(u); return { id, input: { credit: credit(u, id) } }; }, refusedFrom: "credited" },
    creditTransfer: { setup: async (u) => { const id = await paymentRow(u, { provider: "squad_transfer" }); return { id, input: { credit: credit(u, id, "transfer") } }; }, refusedFrom: "expired" },
    holdCard: { setup: async (u) => { const id = await paymentRow(u); return { id, input: { paymentId: id, actuallyPaid: "400", told: told(u, id) } }; }, refusedFrom: "credited" },
    holdInvoice: { setup: async (u) => { const id = await paymentRow(u, { provider: "nowpayments", status: "waiting" }); return { id, input: { paymentId: id, actuallyPaid: "1", told: told(u, id) } }; }, refusedFrom: "credited" },
    abandon: { setup: async (u) => ({ id: await paymentRow(u), input: {} }), refusedFrom: "credited" },
    expire: { setup: async (u) => ({ id: await paymentRow(u, { provider: "squad_transfer" }), input: {} }), refusedFrom: "credited" },
    refuseCard: { setup: async (u) => { const id = await paymentRow(u); return { id, input: { ...told(u, id), paymentId: id } }; }, refusedFrom: "credited" },
    creditReviewed: { setup: async (u) => ({ id: await paymentRow(u, { status: "review" }), input: { amountKobo: 40_000 } }), refusedFrom: "credited" },
    refuseReviewed: { setup: async (u) => ({ id: await paymentRow(u, { status: "review" }), input: {} }), refusedFrom: "credited" },
  },
  "transfer deposit": {
    arrive: { setup: async (u) => { const squadRef = `SQ${uid()}`; return { id: squadRef, input: { row: { squadRef, kind: "dynamic", userId: u, amountKobo: 50_000, squadStatus: "SUCCESS", receivedAt: AT, updatedAt: AT } } }; } },
    arriveUnknown: { setup: async () => { const squadRef = `SQ${uid()}`; return { id: squadRef, input: { row: { squadRef, kind: "static", amountKobo: 50_000, squadStatus: "C", receivedAt: AT, updatedAt: AT } } }; } },
    credit: { setup: async (u) => ({ id: await depositRow(u), input: { paymentId: "P1", amountKobo: 50_000 } }), refusedFrom: "review" },
    duplicate: { setup: async (u) => ({ id: await depositRow(u), input: { detail: "walked" } }), refusedFrom: "credited" },
    hold: { setup: async (u) => { const id = await depositRow(u); return { id, input: { squadRef: id, userId: u, paymentId: "P1", amountKobo: 49_000, detail: "short" } }; }, refusedFrom: "credited" },
    creditReviewed: { setup: async (u) => ({ id: await depositRow(u, { state: "review" }), input: { amountKobo: 49_000 } }), refusedFrom: "verifying" },
    refuseReviewed: { setup: async (u) => ({ id: await depositRow(u, { state: "review" }), input: {} }), refusedFrom: "unmatched" },
  },
  "review item": {
    open: { setup: async (u) => { const paymentId = await paymentRow(u); const id = `rv_${uid().replaceAll("-", "")}`; return { id, input: { row: { id, paymentId, userId: u, provider: "squad", providerPaymentId: paymentId, reason: "card_amount_mismatch", createdAt: AT, updatedAt: AT } } }; } },
    credit: { setup: async (u) => { const { id, paymentId } = await reviewRow(u); return { id, input: credit(u, paymentId, "review", id) }; }, refusedFrom: "credited" },
    refuse: { setup: async (u) => { const { id } = await reviewRow(u); return { id, input: { userId: u, dedupe: `payment.failed:${id}:refused`, message: { kind: "payment.failed", paymentId: id, status: "refused", message: "walked" } } }; }, refusedFrom: "credited" },
  },
  withdrawal: {
    request: { setup: async (u) => { const id = `wd_${uid().replaceAll("-", "").slice(0, 24)}`; return { id, input: { row: { id, ...withdrawalFields(u, id) }, state: "held", within: sql`1` } }; } },
    approve: { setup: async (u) => { const id = await withdrawalRow(u, "approval"); return { id, input: { ...wdTold(u, id), operatorId: "op", reason: "walked" } }; }, refusedFrom: "refused" },
    refuse: { setup: async (u) => { const id = await withdrawalRow(u, "approval"); return { id, input: { ...wdTold(u, id), operatorId: "op", reason: "walked" } }; }, refusedFrom: "held" },
    send: { setup: async (u) => ({ id: await withdrawalRow(u, "held"), input: {} }), refusedFrom: "sending" },
    pay: { setup: async (u) => { const id = await withdrawalRow(u, "sending"); return { id, input: { ...wdTold(u, id), nipReference: "1100", squadStatus: "success" } }; }, refusedFrom: "failed" },
    fail: { setup: async (u) => { const id = await withdrawalRow(u, "sending"); return { id, input: { ...wdTold(u, id), squadStatus: "failed", detail: "walked" } }; }, refusedFrom: "paid" },
    reverse: { setup: async (u) => { const id = await withdrawalRow(u, "paid"); return { id, input: { ...wdTold(u, id), detail: "walked" } }; }, refusedFrom: "failed" },
    note: { setup: async (u) => ({ id: await withdrawalRow(u, "sending"), input: { squadStatus: "pending", detail: "walked" } }), refusedFrom: "paid" },
  },
  "sub-account": {
    open: { setup: async (u) => { const id = await subaccountRow(u, "active", true); return { id, input: { id, parentUserId: u, externalId: id, name: "walked" } }; } },
    freeze: { setup: async (u) => { const id = await subaccountRow(u); return { id, input: { id, parentUserId: u, externalId: id } }; }, refusedFrom: "closed" },
    unfreeze: { setup: async (u) => { const id = await subaccountRow(u, "frozen"); return { id, input: { id, parentUserId: u, externalId: id } }; }, refusedFrom: "active" },
    close: { setup: async (u) => { const id = await subaccountRow(u); return { id, input: { id, parentUserId: u, externalId: id, balanceKobo: 0 } }; }, refusedFrom: "closed" },
  },
  "sub-account transfer": {
    send: { setup: async (u) => { const subId = await subaccountRow(u); const id = `str_${uid()}`; return { id, input: transferOf(id, u, subId, "in") }; } },
    arrive: { setup: async (u) => sentTransfer(u), refusedFrom: "completed" },
  },
  "review decision": {
    creditCard: { setup: async (u) => { const id = await paymentRow(u); return { id, input: decision(id, "card") }; } },
    refuseCard: { setup: async (u) => { const id = await paymentRow(u); return { id, input: decision(id, "card") }; } },
    closeUnknownTransfer: { setup: async () => { const id = `ua_${uid()}`; return { id, input: decision(id, "transfer") }; } },
  },
};

const ENTITIES = { "SMS order": smsOrder, "SMS chain": smsChain, rental, payment, "transfer deposit": transferDeposit, "review item": reviewItem, "review decision": queueDecision, withdrawal, "sub-account": subaccount, "sub-account transfer": subaccountTransfer } as const;
const TABLES: Record<string, { table: string; id: string; status: string }> = {
  "SMS order": { table: "sms_orders", id: "id", status: "status" },
  "SMS chain": { table: "sms_chains", id: "id", status: "status" },
  rental: { table: "rentals", id: "id", status: "status" },
  payment: { table: "payments", id: "id", status: "status" },
  "transfer deposit": { table: "transfer_deposits", id: "squad_ref", status: "state" },
  "review item": { table: "payment_reviews", id: "id", status: "status" },
  "review decision": { table: "review_item_resolutions", id: "item_id", status: "outcome" },
  withdrawal: { table: "withdrawals", id: "id", status: "status" },
  "sub-account": { table: "subaccounts", id: "id", status: "status" },
  "sub-account transfer": { table: "subaccount_transfers", id: "id", status: "status" },
};

afterAll(async () => {
  await expectLedgerBalanced();
});

describe("every declared move runs through the one transition (services/kernel/money-entity.ts)", () => {
  for (const [entityName, moves] of Object.entries(CASES)) {
    for (const [moveName, c] of Object.entries(moves)) {
      it(`${entityName}.${moveName}: moves the row as declared, with its ledger row and event in the same batch`, async () => {
        const user = await createUser({ balanceKobo: 1_000_000 });
        // A test walks every entity alike, whatever its table: the moves as plain values.
        const m = (ENTITIES[entityName as keyof typeof ENTITIES] as unknown as Record<string, Move<string, unknown, SQLiteTable>>)[moveName]!;
        const where = TABLES[entityName]!;
        const { id, input } = await c.setup(user.id);
        const before = await statusOf(where.table, where.id, id);
        const ledgerBefore = await ledgerCount();
        const eventsBefore = await eventCount();
        const result = await transition(db(), m, id, input, AT + 1);
        walked.add(`${entityName}.${moveName}`);
        expect(result.moved).toBe(true);
        const after = (await statusOf(where.table, where.id, id))!;
        expect(after.move_id).toBe(result.moveId);
        const to = m.spec.to;
        if (typeof to === "string") expect(after[where.status]).toBe(to);
        else if (to === null && before) expect(after[where.status]).toBe(before[where.status]);
        const ledgerRows = declaredRows(m.spec.ledger?.(input as never)).length;
        const eventRows = declaredRows(m.spec.event?.(input as never, AT)).length;
        expect(result.ledgerWritten).toBe(ledgerRows > 0);
        expect(result.eventWritten).toBe(eventRows > 0);
        expect((await ledgerCount()) - ledgerBefore).toBe(ledgerRows);
        expect((await eventCount()) - eventsBefore).toBe(eventRows);

        // Again on the same row: a status it may not leave (or the same "new" row, once more) moves nothing, and no
        // money or event is written twice.
        if (c.refusedFrom) await env.DB.prepare(`UPDATE ${where.table} SET ${where.status} = ? WHERE ${where.id} = ?`).bind(c.refusedFrom, id).run();
        if (c.refusedFrom || m.spec.from === "new") {
          const again = await runBatch(db(), { again: move(db(), m, id, input, AT + 2) }).catch((err: unknown) => ({ again: { moved: false, ledgerWritten: false, eventWritten: false, error: err } }));
          expect(again.again.moved).toBe(false);
          expect(again.again.ledgerWritten).toBe(false);
          expect(again.again.eventWritten).toBe(false);
        }
      });
    }
  }

  it("walked every move every entity declares (a new move needs its case above)", () => {
    const declared = declaredEntities().flatMap((e) => e.moves.map((m) => `${e.name}.${m}`));
    expect([...walked].sort()).toEqual([...new Set(declared)].sort());
  });
});
