import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ensureSandboxAccount, topUpSandbox } from "../services/developer";
import { nationalDigits, recipientsFor } from "../services/console";
import { api, balanceOf, createUser, db, expectLedgerBalanced } from "../test/helpers";
import { makeOperator } from "../test/operators";

// Issue 28, "Operators": what the console counts as business, whose row each is, and what a customer sees of an
// operator's manual entry.

/** A customer's sandbox account (a test key's wallet, `sbx_<id>@sandbox.invalid`) with test money and a test order. */
async function sandboxActivity(owner: { id: string }, kobo: number) {
  const who = { id: owner.id, username: `owner-${owner.id.slice(0, 6)}` };
  const sandboxId = await ensureSandboxAccount(db(), who);
  await topUpSandbox(db(), who, kobo, Date.now());
  const orderId = `sbx-order-${crypto.randomUUID().slice(0, 8)}`;
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, number, code, status, created_at, updated_at) VALUES (?, ?, 'Swift', '187', 'USA', 'wa', 'WhatsApp', 50000, '15550009999', '111111', 'used', ?, ?)",
    ).bind(orderId, sandboxId, now, now),
    env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, -50000, 'buy', 'test buy', ?, ?)").bind(sandboxId, `buy:${orderId}`, orderId, now),
    env.DB.prepare("INSERT INTO payments (id, user_id, provider, status, amount_kobo, currency, created_at, updated_at) VALUES (?, ?, 'squad', 'pending', 100000, 'NGN', ?, ?)").bind(`sbx-pay-${orderId}`, sandboxId, now, now),
  ]);
  return { sandboxId, orderId };
}

describe("the overview's customer count (issue 43)", () => {
  it("counts a new customer and never an operator account", async () => {
    const operator = await makeOperator();
    const count = async () => (await api("/api/admin/overview?period=today", { token: operator.token })).data.customers as number;
    const before = await count();
    await makeOperator();
    expect(await count()).toBe(before);
    await createUser();
    expect(await count()).toBe(before + 1);
  });
});

describe("test activity is not business", () => {
  it("sandbox wallets, their credits, orders and deposits stay out of the overview, the customer list, the lists and group e-mails unless the toggle asks", async () => {
    const operator = await makeOperator();
    const owner = await createUser({ username: "Chiamaka" });
    const before = (await api("/api/admin/overview?period=today", { token: operator.token })).data;
    // With the toggle, today's figures already hold the lane's earlier files' sandbox activity (decision 054): the
    // toggle must add exactly this one's.
    const beforeWithTest = (await api("/api/admin/overview?period=today&test=1", { token: operator.token })).data;
    const { sandboxId, orderId } = await sandboxActivity(owner, 77_777_700);

    const after = (await api("/api/admin/overview?period=today", { token: operator.token })).data;
    expect(after.includesTest).toBe(false);
    expect(after.moneyHeld).toBe(before.moneyHeld);
    expect(after.customers).toBe(before.customers);
    expect(after.manualCredits).toBe(before.manualCredits);
    expect(after.spend).toBe(before.spend);
    expect(after.ordersByOutcome).toEqual(before.ordersByOutcome);
    expect(after.margin).toEqual(before.margin);

    const withTest = (await api("/api/admin/overview?period=today&test=1", { token: operator.token })).data;
    expect(withTest.includesTest).toBe(true);
    expect(withTest.manualCredits).toBeCloseTo(beforeWithTest.manualCredits + 777_777, 2);
    expect(withTest.moneyHeld).toBeCloseTo(beforeWithTest.moneyHeld + 777_777 - 500, 2);
    expect(withTest.spend).toBeCloseTo(beforeWithTest.spend + 500, 2);

    const search = async (query: string) => (await api(`/api/admin/customers?${query}`, { token: operator.token })).data.data.map((c: { id: string }) => c.id);
    expect(await search("q=sandbox.invalid")).not.toContain(sandboxId);
    expect(await search("q=")).not.toContain(sandboxId);
    expect(await search("q=sandbox.invalid&test=1")).toContain(sandboxId);

    const ids = async (list: string, query = "") => (await api(`/api/admin/${list}?limit=200${query}`, { token: operator.token })).data.data.map((r: { id: string }) => r.id);
    expect(await ids("orders")).not.toContain(orderId);
    expect(await ids("orders", "&test=1")).toContain(orderId);
    expect(await ids("deposits")).not.toContain(`sbx-pay-${orderId}`);
    expect(await ids("deposits", "&test=1")).toContain(`sbx-pay-${orderId}`);

    const preview = await api("/api/admin/email/preview", { token: operator.token, json: { audience: { group: "all" }, subject: "Hello", body: "News" } });
    expect(preview.status).toBe(200);
    const recipients = await recipientsFor(db(), { group: "all" }, Date.now());
    expect(recipients.some((r) => r.email.endsWith("@sandbox.invalid"))).toBe(false);
    // "all" reads at most MAX_RECIPIENTS_PER_SEND + 1 rows (more is refused as too many), so once the lane's shared
    // database holds over 1,000 customers the owner may not be among them: its tier's audience reads them all.
    const bronze = await recipientsFor(db(), { group: "tier", tier: "Bronze" }, Date.now());
    expect(bronze.map((r) => r.id)).toContain(owner.id);
    expect(bronze.some((r) => r.email.endsWith("@sandbox.invalid"))).toBe(false);
  });
});

describe("whose row it is", () => {
  it("deposits and orders name the customer, and filter by name, e-mail or phone in any common Nigerian form", async () => {
    const operator = await makeOperator();
    const tag = crypto.randomUUID().slice(0, 6);
    const customer = await createUser({ username: `Obinna ${tag}`, email: `obinna-${tag}@example.com` });
    const other = await createUser({ username: `Other ${tag}` });
    const phone = `0809${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    await env.DB.prepare("UPDATE users SET phone = ? WHERE id = ?").bind(phone, customer.id).run();
    await env.DB.prepare("UPDATE users SET phone = '07000000000' WHERE id = ?").bind(other.id).run();
    const now = Date.now();
    for (const who of [customer, other]) {
      await env.DB.batch([
        env.DB.prepare("INSERT INTO payments (id, user_id, provider, status, amount_kobo, currency, created_at, updated_at) VALUES (?, ?, 'squad', 'pending', 500000, 'NGN', ?, ?)").bind(`pay-${who.id}`, who.id, now, now),
        env.DB.prepare(
          "INSERT INTO sms_orders (id, user_id, provider, country_id, country_name, service_id, service_name, price_kobo, status, created_at, updated_at) VALUES (?, ?, 'Swift', '187', 'USA', 'wa', 'WhatsApp', 50000, 'waiting', ?, ?)",
        ).bind(`order-${who.id}`, who.id, now, now),
      ]);
    }
    const national = phone.slice(1);
    for (const query of [`Obinna ${tag}`, `OBINNA-${tag}@EXAMPLE.COM`.toLowerCase(), phone, `+234${national}`, `234${national}`, `+234 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`]) {
      for (const list of ["deposits", "orders"]) {
        const res = await api(`/api/admin/${list}?customer=${encodeURIComponent(query)}`, { token: operator.token });
        expect(res.status).toBe(200);
        expect(res.data.data.map((r: { userId: string }) => r.userId), `${list} for ${query}`).toEqual([customer.id]);
        expect(res.data.data[0].customer).toEqual({ id: customer.id, name: `Obinna ${tag}`, email: customer.email, phone, test: false });
      }
    }
    expect(nationalDigits("0809 123 4567")).toBe("8091234567");
    expect(nationalDigits("+2348091234567")).toBe("8091234567");
    expect(nationalDigits("obinna")).toBeNull();
  });

  it("a deposit says what was invoiced, what arrived and what was credited, apart: an underpaid $10 invoice is not read as its full value", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const now = Date.now();
    const id = `now-under-${crypto.randomUUID().slice(0, 8)}`;
    // $10 at ₦1,550 = ₦15,500 invoiced as 10 USDTTRC20; 5 arrived and ₦7,750 was credited (decision 015).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO payments (id, user_id, provider, status, amount_kobo, currency, provider_payment_id, price_usd_cents, rate_kobo_per_usd, pay_amount, pay_currency, actually_paid, credited_kobo, credited_at, created_at, updated_at) VALUES (?, ?, 'nowpayments', 'credited', 1550000, 'NGN', ?, 1000, 155000, '10', 'usdttrc20', '5', 775000, ?, ?, ?)",
      ).bind(id, customer.id, `np-${id}`, now, now, now),
      env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, 775000, 'fund', 'Wallet deposit (crypto)', ?, ?)").bind(customer.id, `fund:now:np-${id}`, id, now),
    ]);
    const res = await api(`/api/admin/deposits?customer=${encodeURIComponent(customer.email)}`, { token: operator.token });
    const row = res.data.data.find((d: { id: string }) => d.id === id);
    expect(row).toMatchObject({
      invoiced: { naira: 15_500, usd: 10, coin: "usdttrc20", coinAmount: "10" },
      arrived: { naira: 7_750, coin: "usdttrc20", coinAmount: "5" },
      credited: 7_750,
    });
  });
});

describe("an operator's reason is internal", () => {
  it("the customer's history says 'Adjustment by support' and the optional message; the reason, with newlines, quotes and 2,000 characters, is stored as typed in the audit log", async () => {
    const operator = await makeOperator();
    const customer = await createUser({ balanceKobo: 100_000 });
    const head = "Goodwill: failed code yesterday\nticket #9; she wrote \"it's late\"\n";
    const reason = head + "z".repeat(2000 - head.length);
    const credit = await api(`/api/admin/customers/${customer.id}/credit`, {
      token: operator.token,
      json: { amount: 1500, reason, customerMessage: "Sorry about yesterday's code", requestId: crypto.randomUUID() },
    });
    expect(credit.status).toBe(200);
    const debit = await api(`/api/admin/customers/${customer.id}/debit`, { token: operator.token, json: { amount: 200, reason: "Chargeback\nfrom the bank", requestId: crypto.randomUUID() } });
    expect(debit.status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(100_000 + 150_000 - 20_000);

    const history = await api("/api/get-transaction", { token: customer.token });
    const rows = (Array.isArray(history.data) ? history.data : history.data.data) as { note: string; amount: number; status: string }[];
    expect(rows.map((r) => r.note)).toEqual(expect.arrayContaining(["Adjustment by support (deposit): Sorry about yesterday's code", "Adjustment by support (debit)"]));
    expect(JSON.stringify(rows)).not.toMatch(/Goodwill|ticket|Chargeback/);

    const audit = await env.DB.prepare("SELECT action, reason FROM audit_log WHERE subject = ? AND action LIKE 'ledger.%' ORDER BY id").bind(customer.id).all();
    expect(audit.results).toEqual([
      { action: "ledger.credit", reason },
      { action: "ledger.debit", reason: "Chargeback\nfrom the bank" },
    ]);
    await expectLedgerBalanced();
  });

  it("a reason over 2,000 characters or a message over 200 is refused with a clear message, nothing written", async () => {
    const operator = await makeOperator();
    const customer = await createUser();
    const long = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 10, reason: "r".repeat(2001) } });
    expect(long.status).toBe(400);
    expect(long.data.message).toMatch(/2,000 characters/);
    const message = await api(`/api/admin/customers/${customer.id}/credit`, { token: operator.token, json: { amount: 10, reason: "ok", customerMessage: "m".repeat(201) } });
    expect(message.status).toBe(400);
    expect(message.data.message).toMatch(/200 characters/);
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it("an entry written before issue 28, its reason in the note, reads as the neutral label in the customer's history", async () => {
    const customer = await createUser();
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, created_at) VALUES (?, ?, 30000, 'admin', 'Manual deposit adjustment: refund for the fraud check', ?)")
      .bind(customer.id, `admin:legacy-${customer.id}`, Date.now())
      .run();
    const history = await api("/api/get-transaction", { token: customer.token });
    const rows = (Array.isArray(history.data) ? history.data : history.data.data) as { note: string }[];
    expect(rows.map((r) => r.note)).toEqual(["Adjustment by support (deposit)"]);
  });
});
