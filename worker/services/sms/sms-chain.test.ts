import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SmsProviderName } from "../../../schema/constants";
import { smsFault, type SmsActivation, type SmsCancelResult, type SmsCountry, type SmsOffer, type SmsPollResult, type SmsProvider, type UpstreamMoney } from "../../providers/sms/types";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../../test/helpers";
import { stoppingAfterTheEventBatch } from "../../test/fault-seams";
import { fixedClock, recordingNotify } from "../../test/flow-deps";
import { OUTBOX_GRACE_MS, sweepOutbox } from "../kernel";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../../test/sms-fixtures";
import { smsDeps } from "../../test/services";
import { cancelSmsOrder } from "./sms-orders";
import { acceptPushedCode, pollSmsOrderTick, sweepSmsOrders } from "./sms-poll";
import { useTestUpstreams } from "../../test/services";

// "If no code comes, try another number" (issue 17, docs/decisions/022-code-or-next-route.md): charged once for the
// route that delivered, every other route refunded once, the cap and the customer's allowed routes respected, and the
// races: a code arriving on the old route at the switch, a cancel during the switch, two ticks moving on at once.

const MAX = 3;

/** One upstream selling WhatsApp in several countries; every activation has its own scripted polls and release. */
class RouteFake implements SmsProvider {
  readonly bought: { upstreamId: string; countryId: string }[] = [];
  /** upstreamId -> what getStatus answers (default: waiting). */
  readonly status = new Map<string, SmsPollResult>();
  /** upstreamId -> what a release answers (default: released). */
  readonly release = new Map<string, SmsCancelResult>();
  /** countryId -> a refusal at purchase. */
  readonly refuse = new Map<string, Error>();
  /** Runs inside buy() before it answers (once): stages a cancel during the switch. */
  duringBuy: (() => Promise<void>) | null = null;
  /** Runs inside cancel() before it answers (once). */
  duringCancel: (() => Promise<void>) | null = null;
  /** Runs inside countries() (once): the next route is being chosen. */
  duringCountries: (() => Promise<void>) | null = null;

  constructor(
    readonly name: SmsProviderName,
    readonly costs: Record<string, number>,
  ) {}
  async countries(): Promise<SmsCountry[]> {
    const hook = this.duringCountries;
    this.duringCountries = null;
    if (hook) await hook();
    const titles: Record<string, string> = { "5": "USA", "12": "Nigeria", "13": "India", "18": "Ghana" };
    return Object.keys(this.costs).map((id) => ({ id, title: titles[id] ?? id }));
  }
  async services(countryId: string): Promise<SmsOffer[]> {
    const cost = this.costs[countryId];
    return cost === undefined ? [] : [{ countryId, serviceId: "wa", name: "WhatsApp", cost, currency: "USD", count: 100 }];
  }
  async buy(request: { countryId: string }): Promise<SmsActivation> {
    const hook = this.duringBuy;
    this.duringBuy = null;
    if (hook) await hook();
    const refusal = this.refuse.get(request.countryId);
    if (refusal) throw refusal;
    const upstreamId = `${this.name}-${request.countryId}-${this.bought.length + 1}`;
    this.bought.push({ upstreamId, countryId: request.countryId });
    return { upstreamId, number: `1555${String(this.bought.length).padStart(7, "0")}` };
  }
  async poll(upstreamId: string): Promise<SmsPollResult> {
    return this.status.get(upstreamId) ?? { state: "waiting" };
  }
  async cancel(upstreamId: string): Promise<SmsCancelResult> {
    const hook = this.duringCancel;
    this.duringCancel = null;
    if (hook) await hook();
    const answer = this.release.get(upstreamId) ?? { outcome: "released" };
    if (answer.outcome === "released") this.status.set(upstreamId, { state: "cancelled" });
    return answer;
  }
  async finish(): Promise<void> {}
  async balance(): Promise<UpstreamMoney> {
    return { amount: 100, currency: "USD" };
  }
}

let swift: RouteFake;
let dynamic: RouteFake;

beforeEach(async () => {
  // Swift sells only the USA at $0.50 (₦1200); Dynamic sells the USA ($0.60), Nigeria ($0.30) and India ($0.20).
  swift = new RouteFake("Swift", { "5": 0.5 });
  dynamic = new RouteFake("Dynamic", { "5": 0.6, "12": 0.3, "13": 0.2 });
  await resetSmsTestState({ maxAttempts: MAX, provider: swift });
  useTestUpstreams({ sms: (_env, name) => (name === "Dynamic" ? dynamic : swift) });
});
afterEach(restoreSmsProviders);

interface Row {
  id: string;
  status: string;
  provider: string;
  country_id: string;
  price_kobo: number;
  chain_step: number;
  code: string | null;
}

async function buyChained(nextRoute: { cap: number; routes?: { provider: string; country: string }[] }, balanceKobo = 1_000_000) {
  const user = await createUser({ balanceKobo });
  const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", next_route: nextRoute } });
  expect(res.status).toBe(200);
  const orderId = res.data.phone.request_id as string;
  await pollerOf(orderId).stop(); // the tests drive the ticks
  return { user, orderId };
}

async function chain(chainId: string): Promise<Row[]> {
  const { results } = await env.DB.prepare(
    "SELECT id, status, provider, country_id, price_kobo, chain_step, code FROM sms_orders WHERE chain_id = ? ORDER BY chain_step",
  )
    .bind(chainId)
    .all<Row>();
  for (const r of results) await pollerOf(r.id).stop();
  return results;
}

async function chainStatus(chainId: string) {
  return (await env.DB.prepare("SELECT status, current_order_id, end_reason FROM sms_chains WHERE id = ?").bind(chainId).first<{ status: string; current_order_id: string; end_reason: string | null }>())!;
}

async function ledgerKeys(userId: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT key FROM ledger WHERE user_id = ? ORDER BY id").bind(userId).all<{ key: string }>();
  return results.map((r) => r.key.split(":")[0]);
}

/** The order's polling window runs out on this tick. */
async function timeOut(orderId: string) {
  await env.DB.prepare("UPDATE sms_orders SET attempts = ? WHERE id = ?").bind(MAX - 1, orderId).run();
  return pollSmsOrderTick(smsDeps(env), orderId);
}

async function upstreamIdOf(orderId: string): Promise<string> {
  return (await env.DB.prepare("SELECT upstream_id FROM sms_orders WHERE id = ?").bind(orderId).first<{ upstream_id: string }>())!.upstream_id;
}

describe("code or next route: the money", () => {
  it("no code on the first route: the cheapest other route within the cap is bought; its code is paid once, the first refunded once", async () => {
    const { user, orderId } = await buyChained({ cap: 1000 });
    await timeOut(orderId);
    const [first, second] = await chain(orderId);
    expect(first).toMatchObject({ status: "timeout", provider: "Swift", chain_step: 1 });
    // India ($0.20) is the cheapest route within ₦1000; the first route (Swift USA) is not tried again.
    expect(second).toMatchObject({ status: "waiting", provider: "Dynamic", country_id: "13", chain_step: 2 });

    // The dialog follows the chain: the first order names the next one.
    const status = await api(`/api/sms/status/${orderId}`, { token: user.token });
    expect(status.data.chain).toMatchObject({ id: orderId, step: 1, status: "active", next_request_id: second.id, moving_on: false });
    // Issue 29: the route that gave no code is not an end the customer sees; they follow next_request_id.
    expect(status.data.phase).toBe("waiting");

    dynamic.status.set(await upstreamIdOf(second.id), { state: "code", code: "424242" });
    await pollSmsOrderTick(smsDeps(env), second.id);
    const after = await chain(orderId);
    expect(after.map((r) => r.status)).toEqual(["timeout", "used"]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - second.price_kobo);
    // test (the seed), then one debit per route and one refund for the route that never delivered.
    expect(await ledgerKeys(user.id)).toEqual(["test", "buy", "refund", "buy"]);
    expect((await chainStatus(orderId)).status).toBe("ended");

    // The orders table shows the chain: both routes, with their place in it.
    const orders = await api("/api/orders", { token: user.token });
    const rows = (orders.data.data as { reference_code: string; chain_id: string | null; chain_step: number | null }[]).filter((r) => r.chain_id === orderId);
    expect(rows.map((r) => [r.reference_code, r.chain_step])).toEqual([
      [second.id, 2],
      [orderId, 1],
    ]);
    await expectLedgerBalanced();
  });

  it("only the routes the customer allowed, and never above the cap", async () => {
    // Allowed: Dynamic USA ($0.60, above the cap) and Dynamic Nigeria. India is cheaper but not allowed.
    const cap = 800;
    const { user, orderId } = await buyChained({ cap, routes: [{ provider: "Dynamic", country: "5" }, { provider: "Dynamic", country: "12" }] });
    await timeOut(orderId);
    const [, second] = await chain(orderId);
    expect(second).toMatchObject({ provider: "Dynamic", country_id: "12" });
    expect(second.price_kobo).toBeLessThanOrEqual(cap * 100);
    // Nigeria gives no code either: Dynamic USA is allowed but above the cap, so the chain ends there, all refunded.
    await timeOut(second.id);
    expect((await chain(orderId)).map((r) => r.status)).toEqual(["timeout", "timeout"]);
    expect((await chainStatus(orderId)).status).toBe("ended");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("a cap below every other route: the first is refunded and nothing else is bought", async () => {
    const { user, orderId } = await buyChained({ cap: 100 });
    await timeOut(orderId);
    expect(await chain(orderId)).toHaveLength(1);
    expect(dynamic.bought).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  it("a route refused at purchase is passed over (refunded once) for the next; at most 3 routes, every one refunded", async () => {
    dynamic.refuse.set("13", smsFault("no_numbers"));
    const { user, orderId } = await buyChained({ cap: 2000 });
    await timeOut(orderId);
    const rows = await chain(orderId);
    // The refused route counts as the second of the three: Nigeria is the third and last.
    expect(rows.map((r) => [r.provider, r.country_id, r.status])).toEqual([
      ["Swift", "5", "timeout"],
      ["Dynamic", "13", "failed"],
      ["Dynamic", "12", "waiting"],
    ]);
    await timeOut(rows[2].id);
    expect((await chain(orderId)).map((r) => r.status)).toEqual(["timeout", "failed", "timeout"]);
    expect((await chainStatus(orderId)).status).toBe("ended");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("three routes without a code: three charges, three refunds, the chain ends", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    await timeOut(orderId);
    await timeOut((await chain(orderId))[1].id);
    const third = (await chain(orderId))[2];
    expect(third).toMatchObject({ provider: "Dynamic", country_id: "12", status: "waiting" });
    await timeOut(third.id);
    const rows = await chain(orderId);
    expect(rows.map((r) => r.status)).toEqual(["timeout", "timeout", "timeout"]);
    expect((await chainStatus(orderId)).status).toBe("ended");
    const keys = await ledgerKeys(user.id);
    expect(keys.filter((k) => k === "buy")).toHaveLength(3);
    expect(keys.filter((k) => k === "refund")).toHaveLength(3);
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("a worker stopped right after the switch's batch loses no event: the route's refund, the next purchase and its sms.ended naming it were one batch, and the sweep tells it once (issue 42)", async () => {
    const { user, orderId } = await buyChained({ cap: 1000 });
    await env.DB.prepare("UPDATE sms_orders SET attempts = ? WHERE id = ?").bind(MAX - 1, orderId).run();
    const pushes = recordingNotify();
    const dying = { ...smsDeps(env), db: stoppingAfterTheEventBatch(db()), notify: pushes.notify };
    await expect(pollSmsOrderTick(dying, orderId)).rejects.toThrow("the worker was stopped");
    const [first, second] = await chain(orderId);
    expect([first.status, second.status]).toEqual(["timeout", "pending"]);
    expect(pushes.sent).toEqual([]);
    const pending = await env.DB.prepare("SELECT kind, message FROM outbox_events WHERE user_id = ? AND delivered_at IS NULL").bind(user.id).all<{ kind: string; message: string }>();
    expect(pending.results.map((r) => [r.kind, JSON.parse(r.message).nextOrderId])).toEqual([["sms.ended", second.id]]);

    const later = { env, db: db(), notify: pushes.notify, clock: fixedClock(Date.now() + OUTBOX_GRACE_MS + 1) };
    await Promise.all([sweepOutbox(later), sweepOutbox(later)]);
    expect(pushes.sent.filter((p) => p.userId === user.id)).toEqual([{ userId: user.id, message: expect.objectContaining({ kind: "sms.ended", orderId, status: "timeout", refunded: true, nextOrderId: second.id }) }]);
    // The money moved with it: the first route refunded, the next one charged (the sweep settles it later, as any
    // purchase a stopped worker left pending).
    expect(await balanceOf(user.id)).toBe(1_000_000 - second.price_kobo);
    // The customer stops the chain; the sweep later refunds the route the stopped worker bought and moves on no more.
    expect((await cancelSmsOrder(smsDeps(env), user.id, orderId)).status).toBe("cancelled");
    await sweepSmsOrders(smsDeps(env), Date.now() + 3_600_000);
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("a wallet too low for the next route ends the chain (the first is refunded, nothing is overdrawn)", async () => {
    // Only a dearer route is left (the USA on Dynamic, ₦1440, within the cap of ₦2000) and the wallet holds exactly the
    // first route's ₦1200: the refund and the next purchase are one batch (decision 062), so no money can leave
    // between them; after the refund the wallet is still short, nothing is bought and the chain ends.
    dynamic = new RouteFake("Dynamic", { "5": 0.6 });
    useTestUpstreams({ sms: (_env, name) => (name === "Dynamic" ? dynamic : swift) });
    const { user, orderId } = await buyChained({ cap: 2000 }, 120_000);
    await timeOut(orderId);
    expect(await balanceOf(user.id)).toBe(120_000);
    expect(await chain(orderId)).toHaveLength(1);
    expect(await chainStatus(orderId)).toMatchObject({ status: "ended", end_reason: "the wallet is too low for another number" });
    expect(dynamic.bought).toHaveLength(0);
    await expectLedgerBalanced();
  });

  it("the first purchase refused upstream: the customer sees the error and the chain never buys later", async () => {
    swift.refuse.set("5", smsFault("no_numbers"));
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", next_route: { cap: 2000 } } });
    expect(res.status).toBe(503);
    expect(res.data.code).toBe("NO_NUMBERS");
    await sweepSmsOrders(smsDeps(env), Date.now() + 3_600_000);
    expect(dynamic.bought).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  it("refuses a cap that is not a positive amount (400, nothing bought)", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    const res = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "wa", next_route: { cap: -5 } } });
    expect(res.status).toBe(400);
    expect(swift.bought).toHaveLength(0);
  });
});

describe("code or next route: the races", () => {
  it("a code arriving on the old route at the switch wins: no next route, charged once", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    const upstreamId = await upstreamIdOf(orderId);
    // The last poll is empty; the code lands before the release, which the upstream then refuses (ACCESS_READY).
    swift.duringCancel = async () => {
      swift.status.set(upstreamId, { state: "code", code: "777888" });
    };
    swift.release.set(upstreamId, { outcome: "refused", reason: "ACCESS_READY", final: true });
    await timeOut(orderId);
    const rows = await chain(orderId);
    expect(rows).toEqual([expect.objectContaining({ status: "used", code: "777888" })]);
    expect(dynamic.bought).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(1_000_000 - rows[0].price_kobo);
    await expectLedgerBalanced();
  });

  it("a number the upstream will not release yet holds the chain; its late code still wins and nothing else is bought", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    const upstreamId = await upstreamIdOf(orderId);
    swift.release.set(upstreamId, { outcome: "refused", reason: "EARLY_CANCEL_DENIED", final: false });
    expect(await timeOut(orderId)).toMatchObject({ again: true });
    expect(await chain(orderId)).toEqual([expect.objectContaining({ status: "waiting" })]);
    expect(dynamic.bought).toHaveLength(0);

    swift.status.set(upstreamId, { state: "code", code: "135790" });
    await pollSmsOrderTick(smsDeps(env), orderId);
    const rows = await chain(orderId);
    expect(rows).toEqual([expect.objectContaining({ status: "used", code: "135790" })]);
    expect(dynamic.bought).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(1_000_000 - rows[0].price_kobo);
    await expectLedgerBalanced();
  });

  it("a code pushed for the old route after the switch changes nothing: the upstream released it, one route is charged", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    await timeOut(orderId);
    const [, second] = await chain(orderId);
    expect(await acceptPushedCode(smsDeps(env), "Swift", await upstreamIdOf(orderId))).toBe("already_settled");
    dynamic.status.set(await upstreamIdOf(second.id), { state: "code", code: "246802" });
    await pollSmsOrderTick(smsDeps(env), second.id);
    expect(await balanceOf(user.id)).toBe(1_000_000 - second.price_kobo);
    await expectLedgerBalanced();
  });

  it("cancel during the switch: the number being bought is released and refunded, nothing more is tried", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    let answer: string | undefined;
    dynamic.duringBuy = async () => {
      answer = (await cancelSmsOrder(smsDeps(env), user.id, orderId)).status;
    };
    await timeOut(orderId);
    expect(answer).toBe("cancelled");
    const rows = await chain(orderId);
    expect(rows.map((r) => r.status)).toEqual(["timeout", "cancelled"]);
    expect((await chainStatus(orderId)).status).toBe("cancelled");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    const keys = await ledgerKeys(user.id);
    expect(keys.filter((k) => k === "refund")).toHaveLength(2);
    // Nothing moves on from the cancelled route, even when the sweep looks later.
    await sweepSmsOrders(smsDeps(env), Date.now() + 3_600_000);
    expect(await chain(orderId)).toHaveLength(2);
    await expectLedgerBalanced();
  });

  it("cancel while the old route is being released: no next route is bought, everything refunded once", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    let answer: string | undefined;
    swift.duringCancel = async () => {
      answer = await cancelSmsOrder(smsDeps(env), user.id, orderId).then((r) => r.status, (e: { code?: string }) => e.code);
    };
    await timeOut(orderId);
    expect(answer).toBe("cancelled");
    expect(await chain(orderId)).toHaveLength(1);
    expect(dynamic.bought).toHaveLength(0);
    expect((await chainStatus(orderId)).status).toBe("cancelled");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("cancelling the old order's id after the switch cancels the live route", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    await timeOut(orderId);
    expect((await cancelSmsOrder(smsDeps(env), user.id, orderId)).status).toBe("cancelled");
    expect((await chain(orderId)).map((r) => r.status)).toEqual(["timeout", "cancelled"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
    await expectLedgerBalanced();
  });

  it("two ticks resuming an interrupted switch at once buy one next route; the sweep resumes one too", async () => {
    const { user, orderId } = await buyChained({ cap: 2000 });
    // Interrupt the switch: the chain points elsewhere while the first route times out, then back (as after a crash
    // between the refund and the next purchase).
    await env.DB.prepare("UPDATE sms_chains SET current_order_id = 'elsewhere' WHERE id = ?").bind(orderId).run();
    await timeOut(orderId);
    expect(await chain(orderId)).toHaveLength(1);
    await env.DB.prepare("UPDATE sms_chains SET current_order_id = ? WHERE id = ?").bind(orderId, orderId).run();

    await Promise.all([pollSmsOrderTick(smsDeps(env), orderId), pollSmsOrderTick(smsDeps(env), orderId), sweepSmsOrders(smsDeps(env), Date.now() + 120_000)]);
    const rows = await chain(orderId);
    expect(rows.map((r) => [r.chain_step, r.status])).toEqual([
      [1, "timeout"],
      [2, "waiting"],
    ]);
    expect(dynamic.bought).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1_000_000 - rows[1].price_kobo);
    await expectLedgerBalanced();
  });
});
