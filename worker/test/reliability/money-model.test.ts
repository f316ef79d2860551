import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TIERS, SETTING_DEFAULTS } from "../../../schema/settings";
import { manualEntrySql } from "../../db/admin-sql";
import { getDb } from "../../db/client";
import { patchSandboxRental } from "../rent-fixtures";
import { clearSettingsCache, postEntry, putSetting } from "../../services/kernel";
import { smsDeps } from "../../test/services";
import { postSquadWebhook, setSquadSimulator, squadWebhookRaw } from "../payment-fixtures";
import { pollSmsOrderTick, refundKeptSmsOrder, sweepSmsOrders } from "../../services/sms";
import { api, createUser, db, type TestUser } from "../helpers";
import { execOperatorSql, moneyViolations, replayOptions, setActivationCodeArrived, upstreamIdOf } from "./invariants";
import { rentalDeps } from "../../test/services";
import { rentalTick } from "../../services/rent";
import { acceptResellerTerms, closeSubaccount, createSubaccount, setMarkups, transferSubaccount, walletReceives } from "../../services/resellers";
import { createKey } from "../api-fixtures";
import { configFor } from "../../config";
import { rentalProviderFor } from "../../providers/rent";
import type { RentalProvider } from "../../providers/rent/types";
import { useTestServices } from "../services";
import { simulateTransfer, type SimulatedNotification } from "../../sandbox/squad-transfers";
import { linkedChatFor, postUpdate } from "../telegram";
import { clearNextTransfer, openSandboxBankAccount, reverseSandboxTransfer, scriptNextTransfer } from "../../sandbox/squad-payouts";
import { decideWithdrawal, sweepWithdrawals } from "../../services/funding";
import { testServices } from "../services";

/**
 * Model-based money test: random sequences of everything that moves money (card funding and its webhook replays,
 * verify clicks, purchases, codes, cancels, poller alarms and their duplicates, the sweep, rentals and their cancels,
 * the referral reward, operator credits and debits, a reseller's transfers to and from its sub-account and its close, the
 * sub-account's marked-up purchases with the margin credited when kept and reversed by an operator's refund, its
 * marked-up rentals (half with user 0's ref) with the margin and share credited when ended and never when cancelled for a refund,
 * withdrawals to a bank account with Squad paying, timing out or failing, an operator's approval or refusal and a later
 * reversal) run against the real worker, its D1 and its Durable Objects, with the
 * sandbox protocol simulators as the upstreams. After every step the model's balances must equal the database's and
 * every invariant in ./invariants.ts must hold.
 *
 * A failure prints fast-check's seed and path; replay it exactly with
 *   VITE_MODEL_SEED=<seed> VITE_MODEL_PATH=<path> npx vitest run --project worker worker/test/reliability/money-model.test.ts
 * (VITE_MODEL_RUNS=<n> changes the number of runs; only VITE_ variables reach the workerd pool).
 */

const MAX_POLLS = 3;
const REFERRAL_PERCENT = 5;
const RUNS = replayOptions().runs ?? 200;
const MAX_COMMANDS = 50;

type OrderState = "waiting" | "used" | "timeout" | "cancelled";
interface ModelOrder {
  id: string;
  user: number;
  price: number;
  state: OrderState;
  codeUpstream: boolean;
  attempts: number;
  /** "If no code comes, try another number": the chain's id (its first order's) and this route's place in it. */
  chain?: { id: string; step: number };
}
/** A chain moves on once, to its one allowed next route (NEXT_CHOICE), and ends when a code comes or a cancel. */
interface ModelChain {
  status: "active" | "ended" | "cancelled";
  current: string;
}
interface ModelPayment {
  ref: string;
  user: number;
  amount: number;
  provider: "Pending" | "Success" | "Failed";
  credited: boolean;
}
/** A dynamic bank-transfer account (issue 31): credited once, only for the exact amount within its window. */
interface ModelTransfer {
  ref: string;
  user: number;
  amount: number;
  account: string;
  paid: boolean;
  /** Squad's notifications sent so far, for replays. */
  notices: SimulatedNotification[];
}
interface ModelRental {
  id: string;
  user: number;
  price: number;
  state: "active" | "cancelled" | "ended";
  /** Auto-renew (issue 32): the agreed price per renewal (kobo) while on, and whether it paused (a short wallet). */
  autoRenew?: { price: number; paused: boolean };
  /** A renewal came due and was not made: the rental now ends within minutes, too soon to turn auto-renew on. */
  endsSoon?: boolean;
}
interface Model {
  balance: number[];
  hasDeposit: boolean[];
  payments: ModelPayment[];
  transfers: ModelTransfer[];
  orders: ModelOrder[];
  rentals: ModelRental[];
  adminEntries: string[];
  chains: Record<string, ModelChain>;
  /** Withdrawals (issue 45): each one's customer, hold (amount, fee 0) and state as the model follows it. */
  withdrawals: ModelWithdrawal[];
  /** Which customers added their payout account yet (the first withdrawal adds it). */
  payoutAccount: boolean[];
  /** User 2 is a reseller with one sub-account (issue 46): its wallet, whether closed, the transfers' keys made. */
  sub: { balance: number; closed: boolean; keys: Record<string, { direction: "in" | "out"; amount: number }> };
  /** Orders the sub-account bought with the reseller's markup: each settled in its own command (kept or cancelled). */
  /** `ref`: bought with user 0's developer code (decision 075): its share credited when kept. */
  subOrders: { id: string; state: "used" | "cancelled"; refunded: boolean; ref: boolean }[];
  /** Rentals the sub-account took with the reseller's markup (decision 076): each ended or cancelled in its own command. */
  subRentals: string[];
}
type WithdrawalState = "approval" | "paid" | "failed" | "reversed" | "refused";
interface ModelWithdrawal {
  id: string;
  user: number;
  amount: number;
  reference: string;
  state: WithdrawalState;
}
interface Real {
  users: TestUser[];
  runTag: string;
  /** Each user's Telegram chat, linked the first time the user buys from it (issue 48). */
  chats: (string | undefined)[];
  subId: string;
  /** The reseller's (user 2's) live key: it buys as the sub-account with X-Subaccount. */
  resellerSecret: string;
}

// Filled once in beforeAll from the API itself (the tier table is flattened to one tier so prices do not move).
let SMS_PRICE = 0;
let RENT_PRICE = 0;
const SMS_CHOICE = { provider: "Swift", country: "5", service: "mb" } as const;
// The one route a chained purchase allows next: the same service (Yahoo) from sms-man's Nigeria.
const NEXT_CHOICE = { provider: "Dynamic", country: "12", service: "21" } as const;
let NEXT_PRICE = 0;
const RENT_CHOICE = { countryId: "5", duration: "hour", period: 1 } as const;

/**
 * The run's one clock (issue 42, decision 062): every services container the worker builds while the model runs (its
 * requests, the Durable Objects' alarms, the sweeps) reads it (worker/test/services.ts useTestServices), so time moves
 * through the container's clock, never a `now` handed past it. It follows real time; `ahead` runs something as if hours
 * had passed (the cron sweep), through that same clock, then comes back.
 */
const modelClock = {
  skewMs: 0,
  now(): number {
    return Date.now() + this.skewMs;
  },
  async ahead<T>(ms: number, work: () => Promise<T>): Promise<T> {
    this.skewMs += ms;
    try {
      return await work();
    } finally {
      this.skewMs -= ms;
    }
  },
};

/**
 * The cron sweep as if hours had passed, each further ahead than the last: a chain's route it buys is stamped with
 * the sweep's time, so the next sweep must come after it, as it would in real time.
 */
let sweepsAhead = 0;
const sweepLater = () => modelClock.ahead(48 * 3600_000 * ++sweepsAhead, () => sweepSmsOrders(smsDeps(env)));

/** user 1 was referred by user 0; user 2 was not referred. */
const REFERRER_OF: (number | null)[] = [null, 0, null];

function credit(m: Model, user: number, amount: number) {
  m.balance[user] += amount;
}

function creditDeposit(m: Model, p: { credited?: boolean; user: number; amount: number }) {
  p.credited = true;
  const referrer = REFERRER_OF[p.user];
  if (!m.hasDeposit[p.user] && referrer !== null) credit(m, referrer, Math.floor((p.amount * REFERRAL_PERCENT) / 100));
  m.hasDeposit[p.user] = true;
  credit(m, p.user, p.amount);
}

async function checkEverything(m: Model, r: Real) {
  const { results } = await env.DB.prepare(`SELECT id, balance_kobo FROM users WHERE id IN (?, ?, ?)`)
    .bind(...r.users.map((u) => u.id))
    .all<{ id: string; balance_kobo: number }>();
  const actual = r.users.map((u) => results.find((row) => row.id === u.id)?.balance_kobo);
  expect(actual, "balances equal the model's").toEqual(m.balance);
  const sub = await env.DB.prepare("SELECT balance_kobo FROM users WHERE id = ?").bind(r.subId).first<{ balance_kobo: number }>();
  expect(sub?.balance_kobo, "the sub-account's balance equals the model's").toBe(m.sub.balance);
  expect(await moneyViolations()).toEqual([]);
}

const pick = <T,>(list: T[], index: number): T => list[index % list.length];

// --------------------------------------------------------------------------------------------------------------
// Commands

class StartCardPayment implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number, readonly naira: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await api("/api/initialize-transaction", { token: r.users[this.user].token, json: { amount: this.naira, currency: "NGN" } });
    expect(res.status).toBe(200);
    m.payments.push({ ref: res.data.data.data.transaction_ref, user: this.user, amount: this.naira * 100, provider: "Pending", credited: false });
    await checkEverything(m, r);
  }
  toString = () => `startCard(u${this.user}, ₦${this.naira})`;
}

/** The customer pays (or the charge fails) on Squad's side; no webhook yet. */
class ProviderSettles implements fc.AsyncCommand<Model, Real> {
  constructor(readonly payment: number, readonly success: boolean) {}
  check = (m: Readonly<Model>) => m.payments.some((p) => p.provider === "Pending");
  async run(m: Model, r: Real) {
    const open = m.payments.filter((p) => p.provider === "Pending");
    const p = pick(open, this.payment);
    await setSquadSimulator(p.ref, { status: this.success ? "Success" : "Failed" });
    p.provider = this.success ? "Success" : "Failed";
    await checkEverything(m, r);
  }
  toString = () => `providerSettles(#${this.payment}, ${this.success ? "Success" : "Failed"})`;
}

/** Squad's signed webhook; sent again for a payment it already named, it is a replay. */
class SquadWebhook implements fc.AsyncCommand<Model, Real> {
  constructor(readonly payment: number, readonly copies: number) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real) {
    const p = pick(m.payments, this.payment);
    const raw = squadWebhookRaw(p.ref, p.amount, r.users[p.user].email);
    const answers = await Promise.all(Array.from({ length: this.copies }, () => postSquadWebhook(raw)));
    for (const res of answers) expect(res.status).toBe(200);
    if (p.provider === "Success" && !p.credited) creditDeposit(m, p);
    await checkEverything(m, r);
  }
  toString = () => `squadWebhook(#${this.payment} ×${this.copies})`;
}

/** A webhook with a forged signature: refused, nothing moves. */
class ForgedWebhook implements fc.AsyncCommand<Model, Real> {
  constructor(readonly payment: number) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real) {
    const p = pick(m.payments, this.payment);
    const res = await postSquadWebhook(squadWebhookRaw(p.ref, p.amount), "00".repeat(64));
    expect(res.status).toBe(401);
    await checkEverything(m, r);
  }
  toString = () => `forgedWebhook(#${this.payment})`;
}

/** Verify Payment (or the dashboard's return polling) by the owner, or by someone else (404, no effect). */
class VerifyClick implements fc.AsyncCommand<Model, Real> {
  constructor(readonly payment: number, readonly byOwner: boolean) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real) {
    const p = pick(m.payments, this.payment);
    const caller = this.byOwner ? p.user : (p.user + 1) % r.users.length;
    const res = await api("/api/verify-payment", { token: r.users[caller].token, json: { transaction_ref: p.ref } });
    if (!this.byOwner) {
      expect(res.status).toBe(404);
    } else {
      expect(res.status).toBe(200);
      if (p.provider === "Success" && !p.credited) creditDeposit(m, p);
      const expected = p.credited ? "success" : p.provider === "Failed" ? "failed" : "pending";
      expect(res.data.data).toBe(expected);
    }
    await checkEverything(m, r);
  }
  toString = () => `verify(#${this.payment}, ${this.byOwner ? "owner" : "stranger"})`;
}

class StartTransfer implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number, readonly naira: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await api("/api/transfers", { token: r.users[this.user].token, json: { amount: this.naira } });
    expect(res.status).toBe(200);
    m.transfers.push({ ref: res.data.ref, user: this.user, amount: this.naira * 100, account: res.data.account_number, paid: false, notices: [] });
    await checkEverything(m, r);
  }
  toString = () => `startTransfer(u${this.user}, ₦${this.naira})`;
}

async function postTransferNotice(n: SimulatedNotification, copies: number) {
  const answers = await Promise.all(
    Array.from({ length: copies }, () => api("/api/webhooks/squad", { method: "POST", body: JSON.stringify(n.body), headers: { "content-type": "application/json", ...n.headers } })),
  );
  for (const res of answers) expect(res.status).toBe(200);
}

/**
 * A transfer into a dynamic account, and Squad's notification of it (several copies at once): exact within the window
 * credits once; another amount (mismatch), after the window (late) or after it was paid goes to review, never credited.
 */
class TransferArrives implements fc.AsyncCommand<Model, Real> {
  constructor(readonly transfer: number, readonly kind: "exact" | "mismatch" | "late", readonly copies: number) {}
  check = (m: Readonly<Model>) => m.transfers.length > 0;
  async run(m: Model, r: Real) {
    const t = pick(m.transfers, this.transfer);
    const amountKobo = this.kind === "mismatch" ? t.amount + 10_000 : t.amount;
    const now = this.kind === "late" ? modelClock.now() + 31 * 60_000 : modelClock.now();
    const n = await simulateTransfer(env, { accountNumber: t.account, amountKobo, now });
    t.notices.push(n);
    await postTransferNotice(n, this.copies);
    if (this.kind === "exact" && !t.paid) {
      expect(n.status).toBe("SUCCESS");
      t.paid = true;
      creditDeposit(m, t);
    } else {
      expect(n.status).not.toBe("SUCCESS");
    }
    await checkEverything(m, r);
  }
  toString = () => `transfer(#${this.transfer}, ${this.kind} ×${this.copies})`;
}

/** Squad sends an earlier notification again (a replay, out of order): nothing moves. */
class ReplayTransferNotice implements fc.AsyncCommand<Model, Real> {
  constructor(readonly transfer: number, readonly notice: number) {}
  check = (m: Readonly<Model>) => m.transfers.some((t) => t.notices.length > 0);
  async run(m: Model, r: Real) {
    const t = pick(m.transfers.filter((x) => x.notices.length > 0), this.transfer);
    await postTransferNotice(pick(t.notices, this.notice), 1);
    await checkEverything(m, r);
  }
  toString = () => `replayTransferNotice(#${this.transfer}, notice ${this.notice})`;
}

/** A transfer into an account that is no customer's: credited to no one. */
class UnknownAccountTransfer implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const account = `09${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await postTransferNotice(await simulateTransfer(env, { accountNumber: account, amountKobo: 250_000 }), 2);
    await checkEverything(m, r);
  }
  toString = () => "unknownAccountTransfer()";
}

/**
 * A purchase from the web's endpoint, or (issue 48) from the Telegram bot: the same choice pressed in the customer's
 * linked chat (a country and service's button, then the confirm step's), through the webhook as Telegram posts it. The
 * model does not know which face bought: the balances, the order and every invariant must come out the same.
 */
async function buyInChat(r: Real, user: number): Promise<void> {
  r.chats[user] ??= await linkedChatFor(r.users[user]);
  const chatId = r.chats[user]!;
  const providerLetter = SMS_CHOICE.provider[0];
  expect((await postUpdate(chatCallback(chatId, `bq:${providerLetter}:${SMS_CHOICE.country}:${SMS_CHOICE.service}`))).status).toBe(200);
  const step = await env.DB.prepare("SELECT id, amount_kobo FROM telegram_actions WHERE chat_id = ? AND kind = 'buy' AND status = 'open' ORDER BY created_at DESC LIMIT 1")
    .bind(chatId)
    .first<{ id: string; amount_kobo: number }>();
  expect(step, "the chat's confirm step").not.toBeNull();
  expect(step!.amount_kobo, "the confirm step states the web's price").toBe(SMS_PRICE);
  expect((await postUpdate(chatCallback(chatId, `a:${step!.id}`))).status).toBe(200);
}

let chatUpdates = 4_000_000_000 + Math.floor(Math.random() * 100_000_000);
function chatCallback(chatId: string, data: string) {
  chatUpdates += 1;
  const person = { id: Number(chatId), is_bot: false, first_name: "Model" };
  const message = { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: "private" }, text: "…" };
  return { update_id: chatUpdates, callback_query: { id: `model${chatUpdates}`, from: person, chat_instance: `ci${chatId}`, data, message } };
}

class BuyNumber implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number, readonly chained = false, readonly face: "web" | "telegram" = "web") {}
  check = () => true;
  async run(m: Model, r: Real) {
    if (this.face === "telegram") return this.runInChat(m, r);
    if (this.chained && m.balance[this.user] < SMS_PRICE) {
      // A chained purchase brings its own money (an operator's credit, not a deposit: no referral reward), so chains
      // and their move-ons happen in most runs without changing how often anything else succeeds.
      chainFunds += 1;
      const key = `test:chain-funds:${r.runTag}:${chainFunds}`;
      await postEntry(db(), { at: modelClock.now(), userId: r.users[this.user].id, key, amountKobo: SMS_PRICE, kind: "admin", note: "model chain funds" });
      credit(m, this.user, SMS_PRICE);
    }
    const nextRoute = { cap: NEXT_PRICE / 100, routes: [{ provider: NEXT_CHOICE.provider, country: NEXT_CHOICE.country }] };
    const res = await api("/api/sms/get-number", {
      token: r.users[this.user].token,
      json: { ...SMS_CHOICE, price: SMS_PRICE / 100, ...(this.chained ? { next_route: nextRoute } : {}) },
    });
    if (m.balance[this.user] < SMS_PRICE) {
      expect(res.status).toBe(402);
      expect(res.data).toMatchObject({ code: "INSUFFICIENT_BALANCE", message: "Insufficient balance" });
    } else {
      expect(res.status).toBe(200);
      const id: string = res.data.phone.request_id;
      // The sandbox upstream would deliver at once in tests: hold the code back until the model says it arrives.
      await setActivationCodeArrived(await upstreamIdOf("sms_orders", id), false);
      m.balance[this.user] -= SMS_PRICE;
      m.orders.push({ id, user: this.user, price: SMS_PRICE, state: "waiting", codeUpstream: false, attempts: 0, ...(this.chained ? { chain: { id, step: 1 } } : {}) });
      if (this.chained) m.chains[id] = { status: "active", current: id };
    }
    await checkEverything(m, r);
  }
  /** The same purchase from the Telegram bot (no next route: the chat offers none). */
  async runInChat(m: Model, r: Real) {
    // The chat's order is the one that was not there before: not the latest created_at, since a chain's next route
    // bought by a sweep run "hours later" (sweepLater) carries a later time than this purchase.
    const ordersOf = async () =>
      (await env.DB.prepare("SELECT id, price_kobo FROM sms_orders WHERE user_id = ?").bind(r.users[this.user].id).all<{ id: string; price_kobo: number }>()).results;
    const before = new Set((await ordersOf()).map((o) => o.id));
    await buyInChat(r, this.user);
    const added = (await ordersOf()).filter((o) => !before.has(o.id));
    const newest = added[0];
    if (m.balance[this.user] < SMS_PRICE) {
      expect(added, "a wallet short of the price buys nothing from the chat either").toEqual([]);
    } else {
      expect(added).toHaveLength(1);
      expect(newest.price_kobo).toBe(SMS_PRICE);
      await setActivationCodeArrived(await upstreamIdOf("sms_orders", newest.id), false);
      m.balance[this.user] -= SMS_PRICE;
      m.orders.push({ id: newest.id, user: this.user, price: SMS_PRICE, state: "waiting", codeUpstream: false, attempts: 0 });
    }
    await checkEverything(m, r);
  }
  toString = () => `buy(u${this.user}${this.chained ? ", next route" : ""}${this.face === "telegram" ? ", in Telegram" : ""})`;
}

class CodeArrives implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number) {}
  check = (m: Readonly<Model>) => m.orders.some((o) => !o.codeUpstream && o.state === "waiting");
  async run(m: Model, r: Real) {
    const o = pick(
      m.orders.filter((x) => !x.codeUpstream && x.state === "waiting"),
      this.order,
    );
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", o.id), true);
    o.codeUpstream = true;
    await checkEverything(m, r);
  }
  toString = () => `codeArrives(#${this.order})`;
}

/** What one poll of a waiting order does to the model (the code wins; the last empty poll times out with a refund). */
function modelTick(m: Model, o: ModelOrder) {
  if (o.state !== "waiting") return;
  if (o.codeUpstream) {
    used(m, o);
    return;
  }
  o.attempts += 1;
  if (o.attempts >= MAX_POLLS) timedOut(m, o);
}

function used(m: Model, o: ModelOrder) {
  o.state = "used";
  const chain = o.chain ? m.chains[o.chain.id] : undefined;
  if (chain?.status === "active") chain.status = "ended";
}

/**
 * A timeout refunds the order; a chain still on it moves on to its next route (bought in the same tick) when the
 * wallet, refund included, holds its price, and otherwise ends. The real next order is read back and its code held
 * back like any purchase's; `pendingMoves` collects them for moveOnInDb.
 */
function timedOut(m: Model, o: ModelOrder) {
  o.state = "timeout";
  credit(m, o.user, o.price);
  const chain = o.chain ? m.chains[o.chain.id] : undefined;
  if (!o.chain || chain?.status !== "active" || chain.current !== o.id) return;
  if (o.chain.step >= 2 || m.balance[o.user] < NEXT_PRICE) {
    chain.status = "ended";
    return;
  }
  m.balance[o.user] -= NEXT_PRICE;
  pendingMoves.push({ chainId: o.chain.id, user: o.user });
}

let pendingMoves: { chainId: string; user: number }[] = [];
let chainFunds = 0;

/** The orders the model says a chain moved on to: read their ids back, hold their codes back. */
async function moveOnInDb(m: Model) {
  for (const move of pendingMoves) {
    const row = await env.DB.prepare("SELECT id FROM sms_orders WHERE chain_id = ? AND chain_step = 2").bind(move.chainId).first<{ id: string }>();
    expect(row, "the chain moved on to its next route").not.toBeNull();
    await setActivationCodeArrived(await upstreamIdOf("sms_orders", row!.id), false);
    m.orders.push({ id: row!.id, user: move.user, price: NEXT_PRICE, state: "waiting", codeUpstream: false, attempts: 0, chain: { id: move.chainId, step: 2 } });
    m.chains[move.chainId].current = row!.id;
  }
  pendingMoves = [];
}

class CancelOrder implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number, readonly byOwner: boolean) {}
  check = (m: Readonly<Model>) => m.orders.length > 0;
  async run(m: Model, r: Real) {
    const picked = pick(m.orders, this.order);
    const caller = this.byOwner ? picked.user : (picked.user + 1) % r.users.length;
    const res = await api("/api/sms/cancel", { token: r.users[caller].token, json: { request_id: picked.id } });
    // Cancelling any route of a chain cancels the chain and its live route.
    const chain = picked.chain ? m.chains[picked.chain.id] : undefined;
    const o = this.byOwner && chain ? m.orders.find((x) => x.id === chain.current)! : picked;
    if (this.byOwner && chain?.status === "active") chain.status = "cancelled";
    if (!this.byOwner) {
      expect(res.status).toBe(404);
    } else if (o.state === "waiting" && !o.codeUpstream) {
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject({ status: "cancelled", refunded: true });
      o.state = "cancelled";
      credit(m, o.user, o.price);
    } else if (o.state === "cancelled") {
      expect(res.status).toBe(200); // a repeated cancel answers the same and refunds nothing more
    } else {
      // A code that already reached the upstream wins over the cancel: the order is 'used' and keeps its money.
      expect(res.status).toBe(409);
      if (o.state === "waiting") used(m, o);
    }
    await checkEverything(m, r);
  }
  toString = () => `cancel(#${this.order}, ${this.byOwner ? "owner" : "stranger"})`;
}

/** The order's poller alarm fires (driven with runDurableObjectAlarm). */
class PollerAlarm implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number) {}
  check = (m: Readonly<Model>) => m.orders.length > 0;
  async run(m: Model, r: Real) {
    const o = pick(m.orders, this.order);
    const ran = await runDurableObjectAlarm(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(o.id)));
    if (ran) modelTick(m, o);
    else expect(o.state, "only an ended order has no alarm").not.toBe("waiting");
    await moveOnInDb(m);
    await checkEverything(m, r);
  }
  toString = () => `alarm(#${this.order})`;
}

/**
 * At-least-once delivery: the same tick runs twice at once (a retried alarm overlapping the first run). The attempt
 * counter may move once or twice, so the model reads it back; the outcome must still be single and consistent.
 */
class DuplicateAlarm implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number) {}
  check = (m: Readonly<Model>) => m.orders.some((o) => o.state === "waiting");
  async run(m: Model, r: Real) {
    const o = pick(
      m.orders.filter((x) => x.state === "waiting"),
      this.order,
    );
    await Promise.all([pollSmsOrderTick(smsDeps(env), o.id), pollSmsOrderTick(smsDeps(env), o.id)]);
    const row = await env.DB.prepare("SELECT status, attempts FROM sms_orders WHERE id = ?").bind(o.id).first<{ status: string; attempts: number }>();
    if (o.codeUpstream) {
      expect(row!.status).toBe("used");
      used(m, o);
    } else {
      expect(row!.attempts).toBeGreaterThan(o.attempts);
      expect(row!.attempts).toBeLessThanOrEqual(o.attempts + 2);
      o.attempts = row!.attempts;
      if (o.attempts >= MAX_POLLS) {
        expect(row!.status).toBe("timeout");
        timedOut(m, o);
      } else expect(row!.status).toBe("waiting");
    }
    await moveOnInDb(m);
    await checkEverything(m, r);
  }
  toString = () => `duplicateAlarm(#${this.order})`;
}

/** The cron sweep, run as if hours had passed: every waiting order whose alarm gave up is settled once. */
class SweepLater implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    await sweepLater();
    // The routes a chain moves on to during the sweep were bought after it chose what to settle: they stay waiting.
    for (const o of [...m.orders]) {
      if (o.state !== "waiting") continue;
      if (o.codeUpstream) used(m, o); // the release is refused, the last poll finds the code: it stands
      else timedOut(m, o);
    }
    await moveOnInDb(m);
    await checkEverything(m, r);
  }
  toString = () => "sweepLater";
}

class RentNumber implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await api("/api/rent-number", { token: r.users[this.user].token, json: { ...RENT_CHOICE, price: RENT_PRICE / 100 } });
    if (m.balance[this.user] < RENT_PRICE) {
      expect(res.status).toBe(402);
    } else {
      expect(res.status).toBe(201);
      const id: string = res.data.rental.id;
      await patchSandboxRental(env.DB, await upstreamIdOf("rentals", id), { firstSmsAt: modelClock.now() + 3_600_000 });
      m.balance[this.user] -= RENT_PRICE;
      m.rentals.push({ id, user: this.user, price: RENT_PRICE, state: "active" });
    }
    await checkEverything(m, r);
  }
  toString = () => `rent(u${this.user})`;
}

class RentalAction implements fc.AsyncCommand<Model, Real> {
  constructor(readonly rental: number, readonly action: "cancel" | "end") {}
  check = (m: Readonly<Model>) => m.rentals.length > 0;
  async run(m: Model, r: Real) {
    const rental = pick(m.rentals, this.rental);
    const res = await api(`/api/rentals/${rental.id}/${this.action}`, { method: "POST", token: r.users[rental.user].token });
    if (rental.state !== "active") {
      expect(res.status).toBe(409);
    } else {
      expect(res.status).toBe(200);
      if (this.action === "cancel") {
        expect(res.data.refunded).toBe(true);
        rental.state = "cancelled";
        credit(m, rental.user, rental.price);
      } else rental.state = "ended";
    }
    await checkEverything(m, r);
  }
  toString = () => `rental${this.action}(#${this.rental})`;
}

/**
 * "Use this number again" (issue 32) on a past order: a used Swift number (DaisySMS documents getExtraActivation) is
 * bought again as a new order with its own debit; a number from sms-man (the chain's next route) is refused, nothing
 * charged; a stranger gets 404.
 */
class UseAgain implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number, readonly byOwner: boolean) {}
  check = (m: Readonly<Model>) => m.orders.some((o) => o.state === "used");
  async run(m: Model, r: Real) {
    const past = pick(m.orders.filter((o) => o.state === "used"), this.order);
    // Its own window for another code is over (10 minutes after the code): only then is the number taken again.
    await env.DB.prepare("UPDATE sms_orders SET activation_closes_at = ? WHERE id = ? AND activation_closes_at IS NOT NULL").bind(modelClock.now() - 1000, past.id).run();
    const caller = this.byOwner ? past.user : (past.user + 1) % r.users.length;
    const res = await api("/api/sms/use-again", { token: r.users[caller].token, json: { request_id: past.id, price: SMS_PRICE / 100 } });
    const swift = past.chain?.step !== 2;
    if (!this.byOwner) {
      expect(res.status).toBe(404);
    } else if (!swift) {
      expect(res.status).toBe(409);
    } else if (m.balance[past.user] < SMS_PRICE) {
      expect(res.status).toBe(402);
    } else {
      expect(res.status).toBe(200);
      const id: string = res.data.phone.request_id;
      await setActivationCodeArrived(await upstreamIdOf("sms_orders", id), false);
      m.balance[past.user] -= SMS_PRICE;
      m.orders.push({ id, user: past.user, price: SMS_PRICE, state: "waiting", codeUpstream: false, attempts: 0 });
    }
    await checkEverything(m, r);
  }
  toString = () => `useAgain(#${this.order}, ${this.byOwner ? "owner" : "stranger"})`;
}

/** Auto-renew on (at the price the server states for 4 more hours), or off. */
class AutoRenew implements fc.AsyncCommand<Model, Real> {
  constructor(readonly rental: number, readonly enabled: boolean) {}
  check = (m: Readonly<Model>) => m.rentals.length > 0;
  async run(m: Model, r: Real) {
    const rental = pick(m.rentals, this.rental);
    const token = r.users[rental.user].token;
    const url = `/api/rentals/${rental.id}/auto-renew`;
    if (!this.enabled) {
      expect((await api(url, { token, json: { enabled: false } })).status).toBe(200);
      delete rental.autoRenew;
    } else {
      const asked = await api(url, { token, json: { enabled: true, duration: "hour", period: 4, price: 0 } });
      if (rental.state !== "active" || rental.endsSoon) {
        expect(asked.status).toBe(409);
      } else {
        expect(asked.data.code).toBe("PRICE_CHANGED");
        const on = await api(url, { token, json: { enabled: true, duration: "hour", period: 4, price: asked.data.price } });
        expect(on.status).toBe(200);
        rental.autoRenew = { price: Math.round(asked.data.price * 100), paused: false };
      }
    }
    await checkEverything(m, r);
  }
  toString = () => `autoRenew(#${this.rental}, ${this.enabled ? "on" : "off"})`;
}

/**
 * The renewal comes due (the rental's end moved to 10 minutes from now) and its watcher alarm runs, raced by `copies`
 * more runs of the same tick (a retried alarm, the sweep): one charge at the agreed price when the wallet holds it,
 * otherwise auto-renew pauses and nothing is charged.
 */
class RenewalDue implements fc.AsyncCommand<Model, Real> {
  constructor(readonly rental: number, readonly copies: number) {}
  check = (m: Readonly<Model>) => m.rentals.some((x) => x.state === "active");
  async run(m: Model, r: Real) {
    const rental = pick(m.rentals.filter((x) => x.state === "active"), this.rental);
    await env.DB.prepare("UPDATE rentals SET expires_at = ? WHERE id = ?").bind(modelClock.now() + 10 * 60_000, rental.id).run();
    await Promise.all([
      runDurableObjectAlarm(env.RENTAL.get(env.RENTAL.idFromName(rental.id))),
      ...Array.from({ length: this.copies + 1 }, () => rentalTick(rentalDeps(env, configFor(env)), rental.id)),
    ]);
    const a = rental.autoRenew;
    rental.endsSoon = true;
    if (a && !a.paused) {
      if (m.balance[rental.user] >= a.price) {
        m.balance[rental.user] -= a.price;
        rental.endsSoon = false;
      } else a.paused = true;
    }
    await checkEverything(m, r);
  }
  toString = () => `renewalDue(#${this.rental}, alarm + ${this.copies + 1} ticks)`;
}

/** The operator CLI's manual entry (admin:<id>); a re-run of the same statement applies once; a debit never overdraws. */
class OperatorEntry implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number, readonly kobo: number, readonly rerun: number | null) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const entryId = this.rerun !== null && m.adminEntries.length > 0 ? pick(m.adminEntries, this.rerun) : `${r.runTag}-${m.adminEntries.length}`;
    const fresh = !m.adminEntries.includes(entryId);
    const sql = manualEntrySql(getDb(env.DB), { userId: r.users[this.user].id, amountKobo: this.kobo, reason: "model test", actor: "fast-check", entryId }, modelClock.now());
    const overdraft = fresh && m.balance[this.user] + this.kobo < 0;
    if (overdraft) {
      await expect(execOperatorSql(sql)).rejects.toThrow(/CHECK constraint failed/);
    } else {
      await execOperatorSql(sql);
      if (fresh) {
        m.adminEntries.push(entryId);
        credit(m, this.user, this.kobo);
      }
    }
    await checkEverything(m, r);
  }
  toString = () => `operator(u${this.user}, ${this.kobo} kobo${this.rerun !== null ? `, rerun #${this.rerun}` : ""})`;
}

/**
 * A reseller's transfer between its wallet (user 2) and its sub-account (issue 46): made once per key (a reused key
 * answers the first transfer, or 422 with another amount or direction), refused when the source holds less or the
 * sub-account is closed, with nothing moved; money is conserved across the parent and the sub-account.
 */
class SubaccountTransfer implements fc.AsyncCommand<Model, Real> {
  constructor(readonly direction: "in" | "out", readonly kobo: number, readonly reuse: number | null) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const used = Object.keys(m.sub.keys);
    const key = this.reuse !== null && used.length > 0 ? pick(used, this.reuse) : `${r.runTag}-sub-${used.length}-${crypto.randomUUID().slice(0, 6)}`;
    const earlier = m.sub.keys[key];
    const attempt = transferSubaccount(db(), r.users[2].id, r.subId, { direction: this.direction, amountKobo: this.kobo, idempotencyKey: key }, modelClock.now());
    const source = this.direction === "in" ? m.balance[2] : m.sub.balance;
    if (earlier) {
      if (earlier.direction === this.direction && earlier.amount === this.kobo) await attempt;
      else await expect(attempt).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    } else if (m.sub.closed) {
      await expect(attempt).rejects.toMatchObject({ code: "INVALID_STATE" });
    } else if (source < this.kobo) {
      await expect(attempt).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    } else {
      await attempt;
      m.sub.keys[key] = { direction: this.direction, amount: this.kobo };
      const sign = this.direction === "in" ? 1 : -1;
      m.balance[2] -= sign * this.kobo;
      m.sub.balance += sign * this.kobo;
    }
    await checkEverything(m, r);
  }
  toString = () => `subTransfer(${this.direction}, ${this.kobo} kobo${this.reuse !== null ? `, reuse #${this.reuse}` : ""})`;
}

/** The reseller closes its sub-account: the whole balance back to its wallet, once. */
class CloseSubaccount implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const closed = await closeSubaccount(db(), r.users[2].id, r.subId, modelClock.now());
    expect(closed.status).toBe("closed");
    m.balance[2] += m.sub.balance;
    m.sub.balance = 0;
    m.sub.closed = true;
    await checkEverything(m, r);
  }
  toString = () => "closeSubaccount()";
}

/** Withdrawals above this wait for an operator (the run's setting; the default is far above the model's amounts). */
const APPROVAL_ABOVE_KOBO = 200_000;

/**
 * A withdrawal (issue 45) to the customer's own name-matched account, with Squad's next transfer scripted: paid at
 * once, a 424 the re-query settles as paid, or a 424 the re-query says failed (the hold comes back). Whether it may be
 * withdrawn is the server's rule (bank transfers in, less what was spent, within the day's cap and count): the model
 * checks the answer against what it can know (never more than the balance, nothing moved when refused) and follows
 * the accepted one. Above APPROVAL_ABOVE_KOBO it waits for an operator, held.
 */
class Withdraw implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number, readonly kobo: number, readonly squad: "paid" | "timeout" | "fail", readonly bringsTransfer: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const user = r.users[this.user];
    if (this.bringsTransfer) {
      // Most withdrawals bring their own bank transfer in (a deposit row as the transfer flow writes it, without its
      // referral reward), so withdrawals are made in most runs; the rest meet whatever the run left withdrawable.
      await postEntry(db(), { at: modelClock.now(), userId: user.id, key: `fund:transfer:model-${crypto.randomUUID()}`, amountKobo: this.kobo, kind: "fund", note: "model bank transfer" });
      credit(m, this.user, this.kobo);
      // The reward goes on a customer's first deposit (a fund row): this one counts as it, rewarding no one.
      m.hasDeposit[this.user] = true;
    }
    if (!m.payoutAccount[this.user]) {
      const account = `03${String(r.users.indexOf(user))}${String(Date.now()).slice(-4)}${String(++payoutAccounts).padStart(3, "0")}`;
      await openSandboxBankAccount(env, { bank_code: "000013", account_number: account, account_name: "Model Customer" });
      const added = await api("/api/withdrawals/account", { token: user.token, json: { bank_code: "000013", account_number: account, full_name: "Model Customer" } });
      expect(added.status).toBe(200);
      m.payoutAccount[this.user] = true;
    }
    if (this.squad === "paid") await clearNextTransfer(env);
    else await scriptNextTransfer(env, this.squad);
    const res = await api("/api/withdrawals", { token: user.token, json: { amount: this.kobo / 100 }, settle: true });
    if (res.status !== 200) {
      expect(res.status, JSON.stringify(res.data)).toBe(422);
      await clearNextTransfer(env);
    } else {
      expect(this.kobo, "never more than the balance").toBeLessThanOrEqual(m.balance[this.user]);
      m.balance[this.user] -= this.kobo;
      const expected: WithdrawalState = this.kobo > APPROVAL_ABOVE_KOBO ? "approval" : this.squad === "fail" ? "failed" : "paid";
      expect(res.data.state).toBe(expected);
      if (expected === "failed") credit(m, this.user, this.kobo);
      else if (expected === "approval") await clearNextTransfer(env);
      m.withdrawals.push({ id: res.data.id, user: this.user, amount: this.kobo, reference: res.data.reference, state: expected });
      withdrawalsSeen[expected] += 1;
    }
    await checkEverything(m, r);
  }
  toString = () => `withdraw(u${this.user}, ${this.kobo} kobo, squad ${this.squad}${this.bringsTransfer ? ", brings a transfer" : ""})`;
}

/** An operator approves (sent at once, paid) or refuses (the hold comes back) one waiting; a second decision is refused. */
class DecideWithdrawal implements fc.AsyncCommand<Model, Real> {
  constructor(readonly withdrawal: number, readonly approve: boolean) {}
  check = (m: Readonly<Model>) => m.withdrawals.length > 0;
  async run(m: Model, r: Real) {
    const w = pick(m.withdrawals, this.withdrawal);
    const attempt = decideWithdrawal(testServices().payments, { id: "op_model", email: "model-operator@example.com" }, w.id, this.approve ? "approve" : "refuse", "model decision");
    if (w.state !== "approval") {
      await expect(attempt).rejects.toMatchObject({ code: "INVALID_STATE" });
    } else {
      const row = await attempt;
      w.state = this.approve ? "paid" : "refused";
      withdrawalsSeen[w.state] += 1;
      expect(row.state).toBe(w.state);
      if (!this.approve) credit(m, w.user, w.amount);
    }
    await checkEverything(m, r);
  }
  toString = () => `decideWithdrawal(#${this.withdrawal}, ${this.approve ? "approve" : "refuse"})`;
}

/**
 * Squad reverses a transfer later (its re-query answers 412), and the sweep re-queries `copies` times at once: a paid
 * one comes back exactly once; asking to reverse one that was never paid changes nothing.
 */
class ReverseWithdrawal implements fc.AsyncCommand<Model, Real> {
  constructor(readonly withdrawal: number, readonly copies: number) {}
  check = (m: Readonly<Model>) => m.withdrawals.length > 0;
  async run(m: Model, r: Real) {
    const w = pick(m.withdrawals, this.withdrawal);
    const reversed = await reverseSandboxTransfer(env, w.reference);
    expect(reversed, "only a paid transfer can be reversed at Squad").toBe(w.state === "paid");
    const services = testServices();
    await Promise.all(Array.from({ length: this.copies }, () => sweepWithdrawals(services.payments)));
    await services.settle();
    if (w.state === "paid") {
      w.state = "reversed";
      withdrawalsSeen.reversed += 1;
      credit(m, w.user, w.amount);
    }
    await checkEverything(m, r);
  }
  toString = () => `reverseWithdrawal(#${this.withdrawal} ×${this.copies})`;
}

let payoutAccounts = 0;
/** How often each outcome happened over the file's runs (printed; a run of 200 sees every one). */
const withdrawalsSeen: Record<WithdrawalState, number> = { approval: 0, paid: 0, failed: 0, reversed: 0, refused: 0 };

/** The reseller's flat markup in the run (issue 46): its sub-account pays SMS_PRICE plus MARGIN, MARGIN credited when kept. */
const MARKUP_BASIS_POINTS = 2500;
const MARGIN = () => Math.floor((SMS_PRICE * MARKUP_BASIS_POINTS) / 10_000);
/** A developer's ref share (decision 075, the setting's default 5%): of our price, not of the reseller's markup. */
const REF_SHARE = () => Math.floor((SMS_PRICE * 500) / 10_000);

/**
 * A marked-up purchase brings its own money, like a chained one (an operator's credit to the reseller, moved into the
 * sub-account), so marked-up orders and rentals happen in most runs without changing how often anything else succeeds.
 */
async function fundSubaccount(m: Model, r: Real, charged: number) {
  if (m.sub.closed || m.sub.balance >= charged) return;
  chainFunds += 1;
  await postEntry(db(), { at: modelClock.now(), userId: r.users[2].id, key: `test:sub-funds:${r.runTag}:${chainFunds}`, amountKobo: charged, kind: "admin", note: "model sub-account funds" });
  const key = `${r.runTag}-subfund-${chainFunds}`;
  await transferSubaccount(db(), r.users[2].id, r.subId, { direction: "in", amountKobo: charged, idempotencyKey: key }, modelClock.now());
  m.sub.keys[key] = { direction: "in", amount: charged };
  m.sub.balance += charged;
}

/**
 * The reseller's bot buys as its sub-account through the API (X-Subaccount) at its marked-up price; then, in the same
 * command, the code comes (kept: the margin credited to the reseller) or the bot cancels (refunded: no margin). Refused
 * while the sub-account holds less or is closed, nothing moved.
 */
class BuyAsSubaccount implements fc.AsyncCommand<Model, Real> {
  /** `ref`: the bot was written by user 0, whose developer code rides on the purchase (issue 46, decision 075). */
  constructor(
    readonly kept: boolean,
    readonly ref = false,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const headers = { authorization: `Bearer ${r.resellerSecret}`, "x-subaccount": r.subId };
    const charged = SMS_PRICE + MARGIN();
    await fundSubaccount(m, r, charged);
    const ref = this.ref ? (await env.DB.prepare("SELECT referral_code FROM users WHERE id = ?").bind(r.users[0].id).first<{ referral_code: string }>())!.referral_code : undefined;
    const res = await api("/api/v1/sms/orders", { method: "POST", headers: { ...headers, "idempotency-key": crypto.randomUUID() }, json: { ...SMS_CHOICE, max_price: charged / 100, ref } });
    if (m.sub.closed) expect(res.status).toBe(409);
    else if (m.sub.balance < charged) expect(res.status).toBe(402);
    else {
      expect(res.status).toBe(201);
      expect(Math.round(res.data.price * 100)).toBe(charged);
      const id: string = res.data.id;
      m.sub.balance -= charged;
      await setActivationCodeArrived(await upstreamIdOf("sms_orders", id), this.kept);
      if (this.kept) {
        await runDurableObjectAlarm(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(id)));
        m.balance[2] += MARGIN();
        if (this.ref) m.balance[0] += REF_SHARE();
        m.subOrders.push({ id, state: "used", refunded: false, ref: this.ref });
      } else {
        const cancelled = await api(`/api/v1/sms/orders/${id}/cancel`, { method: "POST", headers: { ...headers, "idempotency-key": crypto.randomUUID() }, json: {} });
        expect(cancelled.data.refunded).toBe(true);
        m.sub.balance += charged;
        m.subOrders.push({ id, state: "cancelled", refunded: true, ref: this.ref });
      }
    }
    await checkEverything(m, r);
  }
  toString = () => `buyAsSubaccount(${this.kept ? "kept" : "cancelled"}${this.ref ? ", ref" : ""})`;
}

/** The reseller's margin on a sub-account's rental (decision 076): its flat markup on the reseller's rental price. */
const RENT_MARGIN = () => Math.floor((RENT_PRICE * MARKUP_BASIS_POINTS) / 10_000);

/** User 0's developer share of a rental (decision 075): 5% of our rental price, before the reseller's markup. */
const RENT_REF_SHARE = () => Math.floor((RENT_PRICE * 500) / 10_000);

/**
 * The bot rents as its sub-account (X-Subaccount) at the marked-up price, then in the same command ends it (kept: the
 * margin credited to the reseller, and with `ref` user 0's developer share) or cancels it in time (refunded whole: no
 * margin and no share, ever). Refused while the sub-account holds less or is closed, nothing moved.
 */
class RentAsSubaccount implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly ended: boolean,
    readonly ref = false,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const headers = { authorization: `Bearer ${r.resellerSecret}`, "x-subaccount": r.subId };
    const charged = RENT_PRICE + RENT_MARGIN();
    await fundSubaccount(m, r, charged);
    const ref = this.ref ? (await env.DB.prepare("SELECT referral_code FROM users WHERE id = ?").bind(r.users[0].id).first<{ referral_code: string }>())!.referral_code : undefined;
    const choice = { country: RENT_CHOICE.countryId, duration: RENT_CHOICE.duration, period: RENT_CHOICE.period, max_price: charged / 100, ref };
    const res = await api("/api/v1/rentals", { method: "POST", headers: { ...headers, "idempotency-key": crypto.randomUUID() }, json: choice });
    if (m.sub.closed) expect(res.status).toBe(409);
    else if (m.sub.balance < charged) expect(res.status).toBe(402);
    else {
      expect(res.status).toBe(201);
      expect(Math.round(res.data.amount * 100)).toBe(charged);
      const id: string = res.data.id;
      m.subRentals.push(id);
      m.sub.balance -= charged;
      await patchSandboxRental(env.DB, await upstreamIdOf("rentals", id), { firstSmsAt: modelClock.now() + 3_600_000 });
      const done = await api(`/api/v1/rentals/${id}/${this.ended ? "end" : "cancel"}`, { method: "POST", headers: { ...headers, "idempotency-key": crypto.randomUUID() }, json: {} });
      expect(done.status).toBe(200);
      if (this.ended) {
        m.balance[2] += RENT_MARGIN();
        if (this.ref) m.balance[0] += RENT_REF_SHARE();
      } else m.sub.balance += charged;
    }
    await checkEverything(m, r);
  }
  toString = () => `rentAsSubaccount(${this.ended ? "ended" : "cancelled"}${this.ref ? ", ref" : ""})`;
}

/**
 * An operator refunds one of the sub-account's orders after its code came: the price back to the sub-account and the
 * margin taken back from the reseller, once; refused whole when the reseller's wallet no longer holds the margin, when
 * the order was not kept or was refunded already, or when the sub-account is closed.
 */
class RefundKeptOrder implements fc.AsyncCommand<Model, Real> {
  constructor(readonly order: number) {}
  check = (m: Readonly<Model>) => m.subOrders.length > 0;
  async run(m: Model, r: Real) {
    const o = pick(m.subOrders, this.order);
    const attempt = refundKeptSmsOrder(smsDeps(env), o.id, "model", (userId) => walletReceives(db(), userId));
    if (o.state !== "used" || o.refunded || m.sub.closed) await expect(attempt).rejects.toMatchObject({ code: "INVALID_STATE" });
    else if (m.balance[2] < MARGIN()) await expect(attempt).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    else {
      expect((await attempt).settled).toBe(true);
      o.refunded = true;
      m.sub.balance += SMS_PRICE + MARGIN();
      m.balance[2] -= MARGIN();
      // The developer's share is taken back only while its wallet holds it; else it stays our cost (decision 075).
      if (o.ref && m.balance[0] >= REF_SHARE()) m.balance[0] -= REF_SHARE();
    }
    await checkEverything(m, r);
  }
  toString = () => `refundKept(#${this.order})`;
}

// --------------------------------------------------------------------------------------------------------------

const userArb = fc.integer({ min: 0, max: 2 });
const indexArb = fc.nat({ max: 49 });
const commandArbs = [
  fc.tuple(userArb, fc.constantFrom(1000, 1500, 5000)).map(([u, n]) => new StartCardPayment(u, n)),
  fc.tuple(indexArb, fc.boolean()).map(([i, ok]) => new ProviderSettles(i, ok)),
  fc.tuple(indexArb, fc.integer({ min: 1, max: 3 })).map(([i, n]) => new SquadWebhook(i, n)),
  indexArb.map((i) => new ForgedWebhook(i)),
  fc.tuple(indexArb, fc.boolean()).map(([i, owner]) => new VerifyClick(i, owner)),
  fc.tuple(userArb, fc.constantFrom(1000, 2500)).map(([u, n]) => new StartTransfer(u, n)),
  fc.tuple(indexArb, fc.constantFrom("exact" as const, "exact" as const, "mismatch" as const, "late" as const), fc.integer({ min: 1, max: 3 })).map(([i, k, n]) => new TransferArrives(i, k, n)),
  fc.tuple(indexArb, indexArb).map(([i, j]) => new ReplayTransferNotice(i, j)),
  fc.constant(new UnknownAccountTransfer()),
  // One purchase in three asks "if no code comes, try another number" (it brings its own credit): enough for chains,
  // their move-ons and their cancels to appear in every file run without doubling the file's cost.
  fc.tuple(userArb, fc.nat({ max: 2 })).map(([u, k]) => new BuyNumber(u, k === 0)),
  // Issue 48: the same purchase from the Telegram bot.
  userArb.map((u) => new BuyNumber(u, false, "telegram")),
  indexArb.map((i) => new CodeArrives(i)),
  fc.tuple(indexArb, fc.boolean()).map(([i, owner]) => new CancelOrder(i, owner)),
  indexArb.map((i) => new PollerAlarm(i)),
  indexArb.map((i) => new DuplicateAlarm(i)),
  fc.constant(new SweepLater()),
  userArb.map((u) => new RentNumber(u)),
  fc.tuple(indexArb, fc.constantFrom("cancel" as const, "end" as const)).map(([i, a]) => new RentalAction(i, a)),
  fc.tuple(indexArb, fc.boolean()).map(([i, owner]) => new UseAgain(i, owner)),
  fc.tuple(indexArb, fc.boolean()).map(([i, on]) => new AutoRenew(i, on)),
  fc.tuple(indexArb, fc.integer({ min: 0, max: 2 })).map(([i, n]) => new RenewalDue(i, n)),
  fc
    .tuple(userArb, fc.constantFrom(50_000, 100_000, -30_000, -500_000), fc.option(indexArb, { nil: null }))
    .map(([u, k, rerun]) => new OperatorEntry(u, k, rerun)),
  fc
    .tuple(fc.constantFrom("in" as const, "in" as const, "out" as const), fc.constantFrom(50_000, 200_000, 1_000_000), fc.option(indexArb, { nil: null, freq: 4 }))
    .map(([d, k, reuse]) => new SubaccountTransfer(d, k, reuse)),
  fc.nat({ max: 9 }).filter((n) => n === 0).map(() => new CloseSubaccount()),
  // Issue 45: withdrawals, their operator's decision and a later reversal.
  fc
    .tuple(userArb, fc.constantFrom(100_000, 150_000, 300_000), fc.constantFrom("paid" as const, "paid" as const, "timeout" as const, "fail" as const), fc.nat({ max: 2 }))
    .map(([u, k, squad, f]) => new Withdraw(u, k, squad, f > 0)),
  fc.tuple(indexArb, fc.boolean()).map(([i, ok]) => new DecideWithdrawal(i, ok)),
  fc.tuple(indexArb, fc.integer({ min: 1, max: 2 })).map(([i, n]) => new ReverseWithdrawal(i, n)),
  fc.tuple(fc.boolean(), fc.boolean()).map(([kept, ref]) => new BuyAsSubaccount(kept, ref)),
  indexArb.map((i) => new RefundKeptOrder(i)),
  fc.tuple(fc.boolean(), fc.boolean()).map(([ended, ref]) => new RentAsSubaccount(ended, ref)),
];

let runCounter = 0;

async function disarm(m: Model) {
  // Alarms outlive a run: stop every poller and rental watcher this run created.
  for (const o of m.orders) {
    await runInDurableObject(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(o.id)), (_i, state) => state.storage.deleteAlarm());
  }
  for (const o of m.subOrders) {
    await runInDurableObject(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(o.id)), (_i, state) => state.storage.deleteAlarm());
  }
  for (const rental of m.rentals) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(rental.id)), (_i, state) => state.storage.deleteAlarm());
  }
  for (const id of m.subRentals) {
    await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(id)), (_i, state) => state.storage.deleteAlarm());
  }
}

describe("money model", () => {
  beforeAll(async () => {
    // Rentals renew where the upstream documents extension; sms-man does not, so the run's rent upstream is the
    // sandbox adapter plus the SMS-Activate rent protocol's prolongation (US$0.10 an hour), as renewals.test.ts does.
    const base = rentalProviderFor(env, configFor(env));
    const extending: RentalProvider = Object.assign(Object.create(base), {
      extension: {
        price: async (_id: string, hours: number) => ({ amount: Math.round(hours * 10) / 100, currency: "USD" as const }),
        extend: async () => undefined,
      },
    });
    useTestServices({ upstreams: { rent: () => extending }, clock: modelClock });
    clearSettingsCache();
    await putSetting(db(), "tiers", [DEFAULT_TIERS[0]]);
    await putSetting(db(), "exchange_rate", { rate: 1600 });
    await putSetting(db(), "costs", { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 });
    await putSetting(db(), "referral_reward_percent", { percent: REFERRAL_PERCENT });
    // The bot's per-chat flood limit is not what this test is about (webhook.test.ts is): a long run presses often.
    await putSetting(db(), "telegram_bot", { ...SETTING_DEFAULTS.telegram_bot, updates_per_minute: 600 });
    // Pollers never fire on their own during the run: the model drives every alarm.
    await putSetting(db(), "sms_poll", { interval_ms: 3_600_000, max_attempts: MAX_POLLS });
    // Withdrawals at once after the account is added, and the large ones to an operator (issue 45).
    await putSetting(db(), "withdrawals", { ...SETTING_DEFAULTS.withdrawals, cooling_hours: 0, approval_above_naira: APPROVAL_ABOVE_KOBO / 100 });
    clearSettingsCache();
    const probe = await createUser();
    const prices = await api(`/api/sms/price?id=${SMS_CHOICE.country}&provider=${SMS_CHOICE.provider}`, { token: probe.token });
    SMS_PRICE = Math.round(prices.data[SMS_CHOICE.service].price * 100); // the caller's naira price, in kobo
    const nextPrices = await api(`/api/sms/price?id=${NEXT_CHOICE.country}&provider=${NEXT_CHOICE.provider}`, { token: probe.token });
    NEXT_PRICE = Math.round(nextPrices.data[NEXT_CHOICE.service].price * 100);
    expect(NEXT_PRICE).toBeGreaterThan(0);
    const quote = await api("/api/rent/countries", { token: probe.token, json: RENT_CHOICE });
    RENT_PRICE = Math.round(quote.data.price * 100);
    expect(SMS_PRICE).toBeGreaterThan(0);
    expect(RENT_PRICE).toBeGreaterThan(0);
  });

  afterAll(async () => {
    useTestServices({ upstreams: { rent: null }, clock: null });
    await putSetting(db(), "telegram_bot", SETTING_DEFAULTS.telegram_bot);
    await putSetting(db(), "withdrawals", SETTING_DEFAULTS.withdrawals);
    clearSettingsCache();
  });

  it(`keeps every balance, payment and order consistent over ${RUNS} random runs of up to ${MAX_COMMANDS} commands`, { timeout: 300_000 }, async () => {
    // Every run may hold up to MAX_COMMANDS commands; one run in ten is drawn long (size "max"), the rest at fast-check's
    // default size (about ten), so the file stays near a minute on two cores: each purchase or rental starts a Durable
    // Object, the dominant cost (see docs/reliability.md).
    const sequences = fc.oneof(
      { weight: 9, arbitrary: fc.commands(commandArbs, { maxCommands: MAX_COMMANDS }) },
      { weight: 1, arbitrary: fc.commands(commandArbs, { maxCommands: MAX_COMMANDS, size: "max" }) },
    );
    const property = fc.asyncProperty(sequences, async (cmds) => {
      runCounter += 1;
      const users = [await createUser(), await createUser(), await createUser()];
      await env.DB.prepare("UPDATE users SET referred_by = ? WHERE id = ?").bind(users[0].id, users[1].id).run();
      await acceptResellerTerms(db(), users[2].id, modelClock.now());
      const sub = await createSubaccount(db(), users[2].id, users[2].id, { name: "model", external_id: `run${runCounter}` }, modelClock.now());
      await setMarkups(db(), users[2].id, { percent: MARKUP_BASIS_POINTS / 100, services: {} });
      const resellerSecret = (await createKey(users[2], "live")).secret;
      const model: Model = { balance: [0, 0, 0], hasDeposit: [false, false, false], payments: [], transfers: [], orders: [], rentals: [], adminEntries: [], chains: {}, withdrawals: [], payoutAccount: [false, false, false], sub: { balance: 0, closed: false, keys: {} }, subOrders: [], subRentals: [] };
      pendingMoves = [];
      try {
        await fc.asyncModelRun(() => ({ model, real: { users, runTag: `run${runCounter}-${crypto.randomUUID().slice(0, 8)}`, chats: [], subId: sub.id, resellerSecret } }), cmds);
      } finally {
        await disarm(model);
        // Leave no order waiting for a later run's sweep (which settles at most 50 per call).
        while ((await sweepLater()) > 0);
      }
    });
    const { seed, path } = replayOptions();
    await fc.assert(property, { numRuns: RUNS, seed, path, verbose: 1 });
    console.log(`withdrawal outcomes over ${RUNS} runs: ${JSON.stringify(withdrawalsSeen)}`);
  });
});
