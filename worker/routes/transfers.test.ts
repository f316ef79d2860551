import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { configFor } from "../config";
import { paymentReviews, payments, transferDeposits, virtualAccounts } from "../db/tables";
import { hmacSha512Hex } from "../providers/payments/signatures";
import { useTestUpstreams } from "../test/services";
import { simulateTransfer } from "../sandbox/squad-transfers";
import { reconcileTransfers, sweepTransfers, TRANSFER_QUIET_MS } from "../services/funding";
import { paymentDeps } from "../test/services";
import { getQueueItem, resolveQueueItem } from "../services/console";
import { fixedClock, recordingNotify } from "../test/flow-deps";
import { ledgerCount } from "../test/payment-fixtures";
import { FILE_USERS_SQL, fileUsersRowidMark } from "../test/file-scope";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../test/helpers";

/**
 * Funding by bank transfer (issue 31): the whole money path through the real adapter, the Squad simulator (written
 * from Squad's documents) and our /api/webhooks/squad, as Squad would drive it.
 */

// The transfer sweep takes the 25 oldest waiting deposits: the lane's earlier files left theirs waiting, their
// simulated bank gone with their file (decision 054). They expire here, so the sweep reads this file's deposits, as it
// did when each file had its own database.
beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare(`UPDATE payments SET status = 'expired' WHERE status = 'pending' AND user_id NOT IN (${FILE_USERS_SQL})`).bind(fileUsersRowidMark()),
    env.DB.prepare(`UPDATE transfer_deposits SET state = 'unmatched' WHERE state = 'verifying'`),
  ]);
});
afterEach(async () => {
  useTestUpstreams({ payments: null });
  await expectLedgerBalanced();
});

async function startTransfer(user: TestUser, amount = 5000) {
  const res = await api("/api/transfers", { token: user.token, json: { amount } });
  expect(res.status).toBe(200);
  return res.data as { ref: string; account_number: string; bank_name: string; account_name: string; amount: number; expires_at: string; state: string };
}

/** The sandbox page's JSON form: a transfer lands at Squad and Squad's signed notification reaches our webhook. */
async function send(account: string | undefined, kind: "exact" | "short" | "over" | "late" | "unknown", amount?: number) {
  const res = await api("/sandbox/squad-transfers/send", { json: { account_number: account, kind, amount }, settle: true });
  expect(res.status).toBe(200);
  return res.data as { account_number: string; amount: number; squad_status: string; webhook_status: number };
}

async function postNotice(body: Record<string, unknown>, headers: Record<string, string>) {
  return api("/api/webhooks/squad", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });
}

const view = async (user: TestUser, ref: string) => (await api(`/api/transfers/${ref}`, { token: user.token })).data;
const reviewsOf = (paymentId: string) => db().select().from(paymentReviews).where(eq(paymentReviews.paymentId, paymentId));

describe("pay by transfer: a dynamic account for the amount", () => {
  it("shows bank, account number, account name, the exact amount and an expiry; refuses below the card's minimum", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    expect(t).toMatchObject({ state: "waiting", bank_name: "GTBank", amount: 5000, account_name: expect.stringContaining("SQUAD") });
    expect(t.account_number).toMatch(/^\d{10}$/);
    expect(Date.parse(t.expires_at)).toBeGreaterThan(Date.now() + 25 * 60_000);

    const low = await api("/api/transfers", { token: user.token, json: { amount: 10 } });
    expect(low.status).toBe(400);
    expect(low.data).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringMatching(/^min amount is ₦/) });
    expect((await api("/api/transfers", { token: user.token, json: { amount: "x" } })).status).toBe(400);
  });

  it("another customer's transfer is 404; no token is 401", async () => {
    const owner = await createUser();
    const other = await createUser();
    const t = await startTransfer(owner);
    expect((await api(`/api/transfers/${t.ref}`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/transfers/${t.ref}`)).status).toBe(401);
    expect((await api("/api/transfers", { json: { amount: 5000 } })).status).toBe(401);
  });
});

describe("the notification: verified, re-queried, credited exactly once for what arrived", () => {
  it("an exact transfer credits the owner once, however often and concurrently the notification comes", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    const n = await simulateTransfer(env, { accountNumber: t.account_number, amountKobo: 500_000 });
    expect(n.status).toBe("SUCCESS");
    const replies = await Promise.all(Array.from({ length: 8 }, () => postNotice(n.body, n.headers)));
    for (let i = 0; i < 3; i++) replies.push(await postNotice(n.body, n.headers));
    for (const r of replies) expect(r.status).toBe(200);
    expect(replies[0]!.data).toMatchObject({ response_code: 200, transaction_reference: n.body.transaction_reference });

    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerCount(`fund:transfer:${t.ref}`)).toBe(1);
    expect(await view(user, t.ref)).toMatchObject({ state: "credited", credited_amount: 5000 });
    const [deposit] = await db().select().from(transferDeposits).where(eq(transferDeposits.paymentId, t.ref));
    expect(deposit).toMatchObject({ state: "credited", creditedKobo: 500_000, userId: user.id });
    const history = await api("/api/get-transaction", { token: user.token });
    expect(history.data).toEqual([expect.objectContaining({ id: `fund:transfer:${t.ref}`, amount: 5000, status: "successful" })]);
  });

  it("a wrong or missing signature is 401 and records nothing", async () => {
    const user = await createUser();
    const t = await startTransfer(user);
    const n = await simulateTransfer(env, { accountNumber: t.account_number, amountKobo: 500_000 });
    const tampered = { ...n.body, amount_received: "50000.00" };
    expect((await postNotice(tampered, n.headers)).status).toBe(401);
    expect((await postNotice(n.body, {})).status).toBe(401);
    expect((await postNotice(n.body, { "x-squad-encrypted-body": "ab".repeat(64) })).status).toBe(401);
    expect(await db().select().from(transferDeposits).where(eq(transferDeposits.paymentId, t.ref))).toEqual([]);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("a short or over transfer goes to the review queue, is not credited, and the customer sees 'being checked'", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    const sent = await send(t.account_number, "short");
    expect(sent).toMatchObject({ squad_status: "MISMATCH", amount: 4900, webhook_status: 200 });
    expect(await balanceOf(user.id)).toBe(0);
    expect(await view(user, t.ref)).toMatchObject({ state: "checking", checking_amount: 4900, credited_amount: null });
    const [review] = await reviewsOf(t.ref);
    expect(review).toMatchObject({ reason: "transfer_amount_mismatch", status: "open", suggestedKobo: 490_000, provider: "squad" });

    // The operator sees Squad's record beside ours and credits at most what Squad lists as arrived, once.
    const deps = paymentDeps(env, configFor(env), () => {});
    const item = await getQueueItem(db(), review!.id, Date.now());
    expect(item).toMatchObject({ kind: "transfer", reason: "transfer_amount_mismatch" });
    await expect(resolveQueueItem(deps, { id: review!.id, operator: { id: "op", email: "op@test" }, action: "credit", amount: 5000, reason: "too much" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    const resolved = await resolveQueueItem(deps, { id: review!.id, operator: { id: "op", email: "op@test" }, action: "credit", reason: "customer sent less" });
    expect(resolved.verification).toMatchObject({ provider: "squad", creditable: true, max_amount: 4900 });
    expect(await balanceOf(user.id)).toBe(490_000);
    await expect(resolveQueueItem(deps, { id: review!.id, operator: { id: "op", email: "op@test" }, action: "credit", reason: "again" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await balanceOf(user.id)).toBe(490_000);
    // Issue 42 (reproduced): the credit moves the payment and its arrival with the money, for what arrived, so the
    // customer's transfer card answers credited, never "checking" beside a credited ledger row.
    const [paid] = await db().select().from(payments).where(eq(payments.id, t.ref));
    expect(paid).toMatchObject({ status: "credited", creditedKobo: 490_000 });
    expect(await view(user, t.ref)).toMatchObject({ state: "credited", credited_amount: 4900, checking_amount: 0 });
    const [arrival] = await db().select().from(transferDeposits).where(eq(transferDeposits.paymentId, t.ref));
    expect(arrival).toMatchObject({ state: "credited", creditedKobo: 490_000, amountKobo: 490_000 });
    expect(await ledgerCount(`fund:review:${review!.id}`)).toBe(1);
  });

  it("a short transfer the operator refuses closes its payment and its arrival: nothing credited, nothing left 'checking'", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    await send(t.account_number, "short");
    const [review] = await reviewsOf(t.ref);
    const deps = paymentDeps(env, configFor(env), () => {});
    await resolveQueueItem(deps, { id: review!.id, operator: { id: "op", email: "op@test" }, action: "refuse", reason: "sender asked for it back" });
    expect(await balanceOf(user.id)).toBe(0);
    const [closed] = await db().select().from(payments).where(eq(payments.id, t.ref));
    expect(closed).toMatchObject({ status: "refused", creditedKobo: null });
    const [arrival] = await db().select().from(transferDeposits).where(eq(transferDeposits.paymentId, t.ref));
    expect(arrival).toMatchObject({ state: "refused", amountKobo: 490_000 });
    expect(await view(user, t.ref)).toMatchObject({ checking_amount: 0, credited_amount: null });
  });

  it("a transfer after the window (late) is reviewed, never credited on its own; so is a second transfer after a success", async () => {
    const user = await createUser();
    const late = await startTransfer(user, 2000);
    expect((await send(late.account_number, "late")).squad_status).toBe("EXPIRED");
    expect((await reviewsOf(late.ref)).map((r) => r.reason)).toEqual(["transfer_late"]);
    expect(await view(user, late.ref)).toMatchObject({ state: "checking", checking_amount: 2000 });

    const paid = await startTransfer(user, 3000);
    await send(paid.account_number, "exact");
    const again = await send(paid.account_number, "exact");
    expect(again.squad_status).toBe("EXPIRED");
    expect(await balanceOf(user.id)).toBe(300_000);
    expect((await reviewsOf(paid.ref)).map((r) => r.reason)).toEqual(["transfer_late"]);
  });

  it("a transfer into an account we do not know credits no one and is kept for the console", async () => {
    const user = await createUser();
    const sent = await send(undefined, "unknown");
    expect(sent.webhook_status).toBe(200);
    const [deposit] = await db().select().from(transferDeposits).where(eq(transferDeposits.accountNumber, sent.account_number));
    expect(deposit).toMatchObject({ state: "unmatched", userId: null, amountKobo: 500_000 });
    expect(await balanceOf(user.id)).toBe(0);
  });

  it("an authentic notification Squad's re-query does not confirm is reviewed as unverified, not credited", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    // Signed with our key (as a leaked key or a Squad mistake could), but Squad has no SUCCESS attempt for it.
    const body = {
      transaction_status: "SUCCESS",
      merchant_reference: t.ref,
      merchant_amount: "5000.00",
      amount_received: "5000.00",
      transaction_reference: "REF-NOT-AT-SQUAD-1",
      transaction_type: "dynamic_virtual_account",
    };
    const sig = await hmacSha512Hex(env.SQUAD_SECRET_KEY!, JSON.stringify({ transaction_reference: body.transaction_reference, amount_received: body.amount_received, merchant_reference: body.merchant_reference }));
    expect((await postNotice(body, { "x-squad-encrypted-body": sig })).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
    expect((await reviewsOf(t.ref)).map((r) => r.reason)).toEqual(["transfer_unverified"]);
  });

  it("when Squad cannot be asked, nothing is credited and the sweep settles the arrival later, once", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 5000);
    const n = await simulateTransfer(env, { accountNumber: t.account_number, amountKobo: 500_000 });
    useTestUpstreams({ payments: async () => new Response("down", { status: 503 }) });
    const down = await postNotice(n.body, n.headers);
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(await balanceOf(user.id)).toBe(0);
    useTestUpstreams({ payments: null });
    const deps = { ...paymentDeps(env, configFor(env), () => {}), clock: fixedClock(Date.now() + 2 * 60_000) };
    await sweepTransfers(deps);
    await sweepTransfers(deps);
    expect(await balanceOf(user.id)).toBe(500_000);
    expect(await ledgerCount(`fund:transfer:${t.ref}`)).toBe(1);
  });

  it("a transfer whose notification never came is credited by the sweep from Squad's re-query; the late notice adds nothing", async () => {
    const user = await createUser();
    const t = await startTransfer(user, 4000);
    const n = await simulateTransfer(env, { accountNumber: t.account_number, amountKobo: 400_000 });
    const pushes = recordingNotify();
    // The push is the outbox's delivery, kept alive by defer (as waitUntil does): the test waits for it.
    const deferred: Promise<unknown>[] = [];
    const deps = { ...paymentDeps(env, configFor(env), (work) => void deferred.push(work)), clock: fixedClock(Date.now() + TRANSFER_QUIET_MS + 1000), notify: pushes.notify };
    await sweepTransfers(deps);
    await Promise.all(deferred);
    expect(await balanceOf(user.id)).toBe(400_000);
    expect(pushes.sent).toEqual([{ userId: user.id, message: expect.objectContaining({ kind: "payment.credited", paymentId: t.ref, amount: 4000 }) }]);
    expect((await postNotice(n.body, n.headers)).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(400_000);
    expect(await ledgerCount(`fund:transfer:${t.ref}`)).toBe(1);
  });
});

describe("a permanent account number (Settings)", () => {
  const details = {
    first_name: "Ada",
    last_name: "Obi",
    mobile_num: "08012345678",
    dob: "1990-07-19",
    gender: "female",
    address: "22 Kota Street, Lagos",
    bvn: "22343211654",
  };

  it("checks the details before Squad, keeps the BVN masked, and credits any transfer into the account", async () => {
    const logged: string[] = [];
    for (const level of ["log", "warn", "error", "info"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    }
    const user = await createUser();
    const bad = await api("/api/transfers/static-account", { token: user.token, json: { ...details, bvn: "1234" } });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ code: "VALIDATION_FAILED", message: "Your BVN is 11 digits" });
    const young = await api("/api/transfers/static-account", { token: user.token, json: { ...details, dob: `${new Date().getUTCFullYear() - 10}-01-01` } });
    expect(young.status).toBe(400);
    const refused = await api("/api/transfers/static-account", { token: user.token, json: { ...details, bvn: "22343210000" } });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toMatch(/could not match these details to your BVN/);
    expect(await db().select().from(virtualAccounts).where(eq(virtualAccounts.userId, user.id))).toEqual([]);

    const opened = await api("/api/transfers/static-account", { token: user.token, json: details });
    expect(opened.status).toBe(200);
    expect(opened.data.data).toEqual({ bank_name: "GTBank", account_number: expect.stringMatching(/^\d{10}$/), account_name: "Ada Obi", bvn: "*******1654" });
    expect(JSON.stringify(opened.data)).not.toContain(details.bvn);
    const stored = JSON.stringify(await db().select().from(virtualAccounts).where(eq(virtualAccounts.userId, user.id)));
    expect(stored).not.toContain(details.bvn);
    expect((await api("/api/transfers/static-account", { token: user.token, json: details })).status).toBe(409);

    const account = opened.data.data.account_number as string;
    const first = await send(account, "exact", 1234.5);
    expect(first.webhook_status).toBe(200);
    await send(account, "exact", 800);
    expect(await balanceOf(user.id)).toBe(123_450 + 80_000);
    const credited = await db().select().from(payments).where(and(eq(payments.userId, user.id), eq(payments.provider, "squad_transfer")));
    expect(credited.map((p) => p.status)).toEqual(["credited", "credited"]);
    // The BVN never reached a log line, the refused one (…0000) included.
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((line) => line.includes(details.bvn) || line.includes("22343210000"))).toEqual([]);
    vi.restoreAllMocks();
  });

  it("a retry after an attempt whose answer was lost keeps the account Squad opened, never a BVN mismatch", async () => {
    const user = await createUser();
    const first = await api("/api/transfers/static-account", { token: user.token, json: details });
    expect(first.status).toBe(200);
    // Squad opened the account, but our side never kept it (the answer timed out on the way back, say).
    await db().delete(virtualAccounts).where(eq(virtualAccounts.userId, user.id));
    const retried = await api("/api/transfers/static-account", { token: user.token, json: details });
    expect(retried.status).toBe(200);
    expect(retried.data.data).toEqual(first.data.data);
    expect((await api("/api/transfers/static-account", { token: user.token })).data.data.account_number).toBe(first.data.data.account_number);
  });
});

describe("reconciliation: our credited transfers against Squad's list for the day", () => {
  it("lists every difference", async () => {
    const user = await createUser();
    const a = await startTransfer(user, 5000);
    const b = await startTransfer(user, 6000);
    await send(a.account_number, "exact");
    await send(b.account_number, "short");
    const today = new Date().toISOString().slice(0, 10);
    const report = await reconcileTransfers(paymentDeps(env, configFor(env), () => {}), today);
    const mine = report.differences.filter((d) => d.account_number === a.account_number || d.account_number === b.account_number);
    expect(mine).toEqual([expect.objectContaining({ kind: "squad_only", account_number: b.account_number, amount: 5900 })]);
    await expect(reconcileTransfers(paymentDeps(env, configFor(env), () => {}), "2026-13-40")).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

describe("console: bank transfers", () => {
  it("lists arrivals with their state and reconciles a day; a customer gets 404 there", async () => {
    const { makeOperator, MISSING_PAGE } = await import("../test/operators");
    const operator = await makeOperator();
    const user = await createUser();
    const t = await startTransfer(user, 7000);
    await send(t.account_number, "over");
    const list = await api("/api/admin/transfers?state=review", { token: operator.token });
    expect(list.status).toBe(200);
    expect(list.data.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ payment_id: t.ref, state: "review", squad_status: "MISMATCH", amount: 7100, user: { id: user.id, email: user.email } })]),
    );
    const report = await api(`/api/admin/transfers/reconcile?date=${new Date().toISOString().slice(0, 10)}`, { token: operator.token });
    expect(report.status).toBe(200);
    expect(report.data.differences).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "squad_only", account_number: t.account_number, amount: 7100 })]));
    expect((await api("/api/admin/transfers/reconcile?date=yesterday", { token: operator.token })).status).toBe(400);
    const customer = await api("/api/admin/transfers", { token: user.token });
    expect(customer.status).toBe(404);
    expect(customer.data).toEqual(MISSING_PAGE);
  });

  it("another amount, a late transfer, an unconfirmed notice and an unknown account are each an item of the review queue, with Squad's record beside ours, credited by no one on their own", async () => {
    const { makeOperator } = await import("../test/operators");
    const operator = await makeOperator();
    const user = await createUser();
    const over = await startTransfer(user, 6000);
    await send(over.account_number, "over");
    const late = await startTransfer(user, 6100);
    await send(late.account_number, "late");
    const unconfirmed = await startTransfer(user, 6200);
    const body = { transaction_status: "SUCCESS", merchant_reference: unconfirmed.ref, merchant_amount: "6200.00", amount_received: "6200.00", transaction_reference: `REF-NOT-AT-SQUAD-${crypto.randomUUID()}`, transaction_type: "dynamic_virtual_account" };
    const sig = await hmacSha512Hex(env.SQUAD_SECRET_KEY!, JSON.stringify({ transaction_reference: body.transaction_reference, amount_received: body.amount_received, merchant_reference: body.merchant_reference }));
    expect((await postNotice(body, { "x-squad-encrypted-body": sig })).status).toBe(200);
    const unknown = await send(undefined, "unknown", 4321);
    expect(await balanceOf(user.id)).toBe(0);

    const queue = (await api("/api/admin/reviews", { token: operator.token })).data.data as { id: string; kind: string; reason: string; user: { id: string } | null; payment_id: string; actually_paid: string | null }[];
    const mine = queue.filter((i) => i.user?.id === user.id);
    expect(mine.filter((i) => i.kind === "transfer").map((i) => [i.payment_id, i.reason]).sort()).toEqual(
      [
        [over.ref, "transfer_amount_mismatch"],
        [late.ref, "transfer_late"],
        [unconfirmed.ref, "transfer_unverified"],
      ].sort(),
    );
    const stranger = queue.find((i) => i.reason === "transfer_unknown_account" && i.actually_paid === "4321");
    expect(stranger).toMatchObject({ kind: "transfer", user: null });

    // Squad's record beside ours: the unknown account's list entry, read again; it offers no credit.
    const detail = await api(`/api/admin/reviews/${stranger!.id}`, { token: operator.token });
    expect(detail.status).toBe(200);
    expect(detail.data.review.detail).toContain(unknown.account_number);
    expect(detail.data.verification).toMatchObject({ provider: "squad", actually_paid: "4321", creditable: false });
    expect(detail.data.verification.message).toContain(unknown.account_number);
    const overDetail = await api(`/api/admin/reviews/${mine.find((i) => i.payment_id === over.ref)!.id}`, { token: operator.token });
    expect(overDetail.data.verification).toMatchObject({ provider: "squad", actually_paid: "6100" });

    // An unknown account's transfer is credited to nobody from the queue; closed once, with its reason.
    const credit = await api(`/api/admin/reviews/${stranger!.id}/resolve`, { token: operator.token, json: { action: "credit", reason: "mine" } });
    expect(credit.status).toBe(409);
    expect(credit.data.message).toMatch(/manual credit/);
    const closed = await api(`/api/admin/reviews/${stranger!.id}/resolve`, { token: operator.token, json: { action: "refuse", reason: "sender's bank asked to return it\nticket #9" } });
    expect(closed.status).toBe(200);
    expect(closed.data.review).toMatchObject({ status: "refused", resolution: { outcome: "refused", note: "sender's bank asked to return it\nticket #9" } });
    expect((await api(`/api/admin/reviews/${stranger!.id}/resolve`, { token: operator.token, json: { action: "refuse", reason: "again" } })).status).toBe(409);
    const open = (await api("/api/admin/reviews", { token: operator.token })).data.data as { id: string }[];
    expect(open.map((i) => i.id)).not.toContain(stranger!.id);
    expect(await balanceOf(user.id)).toBe(0);
  });
});
