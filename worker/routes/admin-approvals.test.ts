import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearSettingsCache, notify } from "../services/kernel";
import { APPROVAL_MESSAGES, approvalSql, runAdminSql } from "../services/console";
import { eq } from "drizzle-orm";
import { operatorApprovals } from "../db/tables";
import { api, balanceOf, createUser, db, expectLedgerBalanced, type TestUser } from "../test/helpers";
import { makeOperator } from "../test/operators";
import { enrolPasskey, signInWithPasskey } from "../test/passkeys";
import { hashPassword } from "../lib/password";
import { CLOSE_SESSION_ENDED } from "../rooms/notification-room";
import { collect, joinOwnRoom } from "../test/sockets";

// Issue 33 (ASVS 5.0 2.3.5, 7.4.5): large manual credits and debits, a customer's 2FA reset and the threshold itself
// take a second operator; operators end a customer's sessions. Every refusal is a 4xx with nothing written.

const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;
const auditOf = (subject: string) =>
  env.DB.prepare("SELECT actor, action, reason FROM audit_log WHERE subject = ? ORDER BY id").bind(subject).all<{ actor: string; action: string; reason: string }>().then((r) => r.results);

async function credit(operator: TestUser, customer: TestUser, amount: number, direction: "credit" | "debit" = "credit", requestId = crypto.randomUUID()) {
  return api(`/api/admin/customers/${customer.id}/${direction}`, { token: operator.token, json: { amount, reason: "goodwill after an outage", requestId } });
}

describe("manual entries above the approval threshold (default ₦50,000)", () => {
  it("wait for a second operator: 202, no ledger row; the requester cannot approve (403, nothing written); another operator applies it once", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const customer = await createUser({ balanceKobo: 1_000_00 });
    const requestId = crypto.randomUUID();
    const held = await credit(alice, customer, 75_000, "credit", requestId);
    expect(held.status).toBe(202);
    expect(held.data.balance).toBe(1_000);
    expect(held.data.approval).toMatchObject({ kind: "ledger_entry", status: "pending", amount: 75_000, requestedByMe: true, summary: `Credit ₦75,000.00 to ${customer.email}` });
    // The same click again asks once.
    expect((await credit(alice, customer, 75_000, "credit", requestId)).data.approval.id).toBe(held.data.approval.id);
    expect(await count("SELECT COUNT(*) AS n FROM operator_approvals WHERE subject = ?", customer.id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND kind = 'admin' AND key LIKE 'admin:%'", customer.id)).toBe(0);
    expect(await balanceOf(customer.id)).toBe(1_000_00);

    const auditBefore = await auditOf(customer.id);
    const own = await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: alice.token, json: { reason: "looks right to me" } });
    expect(own.status).toBe(403);
    expect(own.data).toMatchObject({ code: "FORBIDDEN", message: APPROVAL_MESSAGES.ownRequest, error: APPROVAL_MESSAGES.ownRequest });
    expect(await auditOf(customer.id)).toEqual(auditBefore);
    expect(await count("SELECT COUNT(*) AS n FROM operator_approvals WHERE id = ? AND status = 'pending'", held.data.approval.id)).toBe(1);

    const listed = await api("/api/admin/approvals", { token: bola.token });
    expect(listed.data.data.find((a: { id: string }) => a.id === held.data.approval.id)).toMatchObject({ requestedByMe: false, requestedBy: alice.email });

    const ok = await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: bola.token, json: { reason: "matches the outage ticket" } });
    expect(ok.status).toBe(200);
    expect(ok.data.balance).toBe(76_000);
    expect(ok.data.approval).toMatchObject({ status: "approved", decidedBy: bola.email, decisionReason: "matches the outage ticket" });
    expect(await balanceOf(customer.id)).toBe(76_000_00);
    const again = await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: bola.token, json: { reason: "twice" } });
    expect(again.status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(76_000_00);
    expect(await auditOf(customer.id)).toEqual([
      { actor: alice.email, action: "approval.request.ledger_entry", reason: "goodwill after an outage" },
      { actor: alice.email, action: "ledger.credit", reason: "goodwill after an outage" },
      { actor: bola.email, action: "approval.approve.ledger_entry", reason: "matches the outage ticket" },
    ]);
    await expectLedgerBalanced();
  });

  it("at or below the threshold applies at once; a large debit the balance cannot cover stays pending (402, nothing moved)", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const customer = await createUser({ balanceKobo: 60_000_00 });
    const atLimit = await credit(alice, customer, 50_000);
    expect(atLimit.status).toBe(200);
    expect(atLimit.data.balance).toBe(110_000);
    const debit = await credit(alice, customer, 200_000, "debit");
    expect(debit.status).toBe(202);
    const refused = await api(`/api/admin/approvals/${debit.data.approval.id}/approve`, { token: bola.token, json: { reason: "chargeback" } });
    expect(refused.status).toBe(402);
    expect(await balanceOf(customer.id)).toBe(110_000_00);
    expect(await count("SELECT COUNT(*) AS n FROM operator_approvals WHERE id = ? AND status = 'pending' AND decided_by IS NULL", debit.data.approval.id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ? AND action LIKE 'approval.approve%'", customer.id)).toBe(0);
    // The requester withdraws it.
    const withdrawn = await api(`/api/admin/approvals/${debit.data.approval.id}/reject`, { token: alice.token, json: { reason: "entered by mistake" } });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.data.approval.status).toBe("rejected");
    expect((await api(`/api/admin/approvals/${debit.data.approval.id}/approve`, { token: bola.token, json: { reason: "late" } })).status).toBe(409);
    await expectLedgerBalanced();
  });

  it("an operator may not approve a credit to their own account; bad input is refused before anything is written", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const held = await credit(alice, bola, 90_000);
    expect(held.status).toBe(202);
    const selfish = await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: bola.token, json: { reason: "thanks" } });
    expect(selfish.status).toBe(403);
    expect(selfish.data.message).toBe(APPROVAL_MESSAGES.ownAccount);
    expect(await balanceOf(bola.id)).toBe(0);
    expect((await api(`/api/admin/approvals/${crypto.randomUUID()}/approve`, { token: bola.token, json: { reason: "x" } })).status).toBe(404);
    expect((await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: alice.token, json: { reason: " " } })).status).toBe(400);
    expect((await api("/api/admin/approvals?status=maybe", { token: alice.token })).status).toBe(400);
    // A customer (or anyone who is not an operator with 2FA) sees the console's one 404.
    const customer = await createUser();
    expect((await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: customer.token, json: { reason: "me" } })).status).toBe(404);
  });

  it("the database itself refuses an approval by the operator who asked (CHECK), and a claim that lost a race moves no money", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const customer = await createUser();
    const held = await credit(alice, customer, 80_000);
    const id = held.data.approval.id as string;
    await expect(env.DB.prepare("UPDATE operator_approvals SET status = 'approved', decided_by = requested_by WHERE id = ?").bind(id).run()).rejects.toThrow(/CHECK constraint failed/);
    // Rejected between the approver's read (the pending row) and their batch: the batch rolls back whole.
    const pending = await db().select().from(operatorApprovals).where(eq(operatorApprovals.id, id)).limit(1);
    await env.DB.prepare("UPDATE operator_approvals SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?").bind(alice.id, Date.now(), id).run();
    await expect(runAdminSql(env.DB, approvalSql(pending[0], { id: bola.id, email: bola.email }, "late", Date.now()))).rejects.toThrow(/malformed JSON/);
    expect(await balanceOf(customer.id)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ? AND action IN ('ledger.credit', 'approval.approve.ledger_entry')", customer.id)).toBe(0);
    expect((await api(`/api/admin/approvals/${id}/approve`, { token: bola.token, json: { reason: "late" } })).status).toBe(409);
  });
});

describe("the approval threshold is an operator setting that itself takes two operators", () => {
  it("a change waits (202), then applies; a bad value is a 400 with nothing asked", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const bad = await api("/api/admin/settings/approval_threshold", { method: "PATCH", token: alice.token, json: { value: { naira: -1 }, reason: "x" } });
    expect(bad.status).toBe(400);
    const before = await count("SELECT COUNT(*) AS n FROM operator_approvals WHERE kind = 'setting'");
    const held = await api("/api/admin/settings/approval_threshold", { method: "PATCH", token: alice.token, json: { value: { naira: 100_000 }, reason: "higher volume" } });
    expect(held.status).toBe(202);
    expect(await count("SELECT COUNT(*) AS n FROM operator_approvals WHERE kind = 'setting'")).toBe(before + 1);
    clearSettingsCache();
    expect((await api("/api/admin/settings", { token: alice.token })).data.settings.approval_threshold).toEqual({ naira: 50_000 });
    expect((await api(`/api/admin/approvals/${held.data.approval.id}/approve`, { token: bola.token, json: { reason: "agreed in standup" } })).status).toBe(200);
    clearSettingsCache();
    expect((await api("/api/admin/settings", { token: alice.token })).data.settings.approval_threshold).toEqual({ naira: 100_000 });
    const customer = await createUser();
    expect((await credit(alice, customer, 90_000)).status).toBe(200);
    // Back to the default for the other tests of this file.
    const back = await api("/api/admin/settings/approval_threshold", { method: "PATCH", token: bola.token, json: { value: { naira: 50_000 }, reason: "restore" } });
    expect((await api(`/api/admin/approvals/${back.data.approval.id}/approve`, { token: alice.token, json: { reason: "restore" } })).status).toBe(200);
    clearSettingsCache();
  });
});

describe("resetting a customer's two-factor sign-in", () => {
  it("asks once per customer, refuses a customer without 2FA (409) and the requester's own approval (403)", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const customer = await makeOperator();
    const first = await api(`/api/admin/customers/${customer.id}/reset-2fa`, { token: alice.token, json: { reason: "lost phone" } });
    const second = await api(`/api/admin/customers/${customer.id}/reset-2fa`, { token: alice.token, json: { reason: "lost phone" } });
    expect(first.status).toBe(202);
    expect(second.data.approval.id).toBe(first.data.approval.id);
    expect((await api(`/api/admin/approvals/${first.data.approval.id}/approve`, { token: alice.token, json: { reason: "me" } })).status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE id = ? AND totp_enabled_at IS NOT NULL", customer.id)).toBe(1);
    expect((await api(`/api/admin/approvals/${first.data.approval.id}/approve`, { token: bola.token, json: { reason: "id checked" } })).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE id = ? AND totp_enabled_at IS NULL AND totp_secret IS NULL", customer.id)).toBe(1);
    const none = await api(`/api/admin/customers/${(await createUser()).id}/reset-2fa`, { token: alice.token, json: { reason: "x" } });
    expect(none.status).toBe(409);
  });

  it("a customer whose only second factor is a passkey can be reset: the approval deletes the passkeys, and the password alone signs in", async () => {
    const [alice, bola] = [await makeOperator(), await makeOperator()];
    const customer = await createUser();
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword("lost-phone-new-start"), customer.id).run();
    const auth = await enrolPasskey(customer);
    const asked = await api(`/api/admin/customers/${customer.id}/reset-2fa`, { token: alice.token, json: { reason: "lost the phone with the passkey" } });
    expect(asked.status).toBe(202);
    // Until approved, the passkey stays and the password still asks for it.
    expect(await count("SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?", customer.id)).toBe(1);
    const before = await api("/api/login", { json: { email: customer.email, password: "lost-phone-new-start" } });
    expect(before.data).toMatchObject({ two_factor_required: true, methods: ["passkey"] });

    expect((await api(`/api/admin/approvals/${asked.data.approval.id}/approve`, { token: bola.token, json: { reason: "id checked" } })).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?", customer.id)).toBe(0);
    expect((await signInWithPasskey(auth)).status).toBe(400);
    const after = await api("/api/login", { json: { email: customer.email, password: "lost-phone-new-start" } });
    expect(after.status).toBe(200);
    expect(after.data).toMatchObject({ token: expect.any(String), user: { userId: customer.id } });
    expect(after.data.two_factor_required).toBeUndefined();
    expect(await auditOf(customer.id)).toEqual([
      { actor: alice.email, action: "approval.request.reset_2fa", reason: "lost the phone with the passkey" },
      { actor: alice.email, action: "user.reset_2fa", reason: "lost the phone with the passkey" },
      { actor: bola.email, action: "approval.approve.reset_2fa", reason: "id checked" },
    ]);
  });
});

describe("an operator ends a customer's sessions (ASVS 7.4.5)", () => {
  it("ends every live session and closes their sockets before answering, audited; the customer can sign in again", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const socket = await joinOwnRoom(customer);
    const received = collect(socket);
    const res = await api(`/api/admin/customers/${customer.id}/sessions/revoke`, { token: operator.token, json: { reason: "customer reported a stolen phone" } });
    expect(res.status).toBe(200);
    expect(res.data.revoked).toBe(1);
    expect((await socket.closed).code).toBe(CLOSE_SESSION_ENDED);
    await notify(env, customer.id, { kind: "toast", type: "info", message: "after" });
    expect(received).toEqual([]);
    expect((await api("/api/account", { token: customer.token })).status).toBe(401);
    expect(await auditOf(customer.id)).toEqual([{ actor: operator.email, action: "user.end_sessions", reason: "customer reported a stolen phone" }]);
    expect((await env.DB.prepare("SELECT previous FROM audit_log WHERE subject = ? AND action = 'user.end_sessions'").bind(customer.id).first<{ previous: string }>())?.previous).toBe("1");
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE id = ? AND blocked_at IS NULL", customer.id)).toBe(1);
  });

  it("one named session only; another customer's or an ended session is a 404 with nothing written", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const other = await createUser();
    const wrong = await api(`/api/admin/customers/${customer.id}/sessions/revoke`, { token: operator.token, json: { reason: "x", sessionId: other.sessionId } });
    expect(wrong.status).toBe(404);
    expect(await auditOf(customer.id)).toEqual([]);
    expect((await api(`/api/admin/customers/${customer.id}/sessions/revoke`, { token: operator.token, json: {} })).status).toBe(400);
    const one = await api(`/api/admin/customers/${customer.id}/sessions/revoke`, { token: operator.token, json: { reason: "that device", sessionId: customer.sessionId } });
    expect(one.data.revoked).toBe(1);
    expect((await api(`/api/admin/customers/${customer.id}/sessions/revoke`, { token: operator.token, json: { reason: "again", sessionId: customer.sessionId } })).status).toBe(404);
    expect((await api("/api/account", { token: other.token })).status).toBe(200);
  });
});
