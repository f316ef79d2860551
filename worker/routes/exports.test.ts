import { env, exports as workerExports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, createUser } from "../test/helpers";
import { createKey } from "../test/api-fixtures";
import { pollerOf, resetSmsTestState, restoreSmsProviders } from "../test/sms-fixtures";

// CSV export of the history screens: the same rows as the screens, a date range in Lagos days, naira with 2 decimals,
// times in the app's one clock (schema/datetime.ts).

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => resetSmsTestState());
afterEach(restoreSmsProviders);

const lagosDay = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);

async function csv(path: string, token?: string) {
  const res = await (workerExports as unknown as { default: Fetcher }).default.fetch(
    new Request(`http://127.0.0.1:8787${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
  );
  return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), text: await res.text() };
}

describe("GET /api/export/*.csv", () => {
  it("exports the transactions and orders the screens show for the range, naira with two decimals", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    const bought = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const orderId = bought.data.phone.request_id as string;
    expect((await api("/api/sms/cancel", { token: user.token, json: { request_id: orderId } })).status).toBe(200);
    const today = lagosDay(Date.now());

    const tx = await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, user.token);
    expect(tx.status).toBe(200);
    expect(tx.type).toBe("text/csv; charset=utf-8");
    expect(tx.disposition).toBe(`attachment; filename="transactions-${today}-to-${today}.csv"`);
    const lines = tx.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Date (WAT)","Reference","Description","Amount (NGN)","Status","Not moved (NGN)"');
    // Issue 43: the refunded purchase is its charge and its return, signed, and the Amount column adds up to the balance.
    const purchase = lines.filter((l) => l.includes(`"buy:${orderId}"`));
    expect(purchase).toHaveLength(1);
    expect(purchase[0]).toMatch(/^"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M WAT","buy:[^"]+","Sandbox No-SMS number \(USA\)","-120\.00","refunded",""$/);
    const refund = lines.filter((l) => l.includes(`"refund:${orderId}"`));
    expect(refund).toHaveLength(1);
    expect(refund[0]).toMatch(/"120\.00","refunded",""$/);
    const amounts = lines.slice(1).map((l) => Number(JSON.parse(`[${l}]`)[3]));
    expect(Math.round(amounts.reduce((a, b) => a + b, 0) * 100)).toBe(500_000);

    const orders = await csv(`/api/export/orders.csv?from=${today}&to=${today}`, user.token);
    const orderLines = orders.text.trimEnd().split("\r\n");
    expect(orderLines[0]).toBe('"Date (WAT)","Reference","Kind","Service","Country","Provider","Number","Code","Amount (NGN)","Status"');
    expect(orderLines.slice(1)).toEqual([expect.stringMatching(new RegExp(`"${orderId}","Receive SMS","Sandbox No-SMS","USA","Swift","1\\d{10}","","120\\.00","cancelled"$`))]);

    // A range before the purchase holds the header only.
    const empty = await csv("/api/export/orders.csv?from=2020-01-01&to=2020-01-31", user.token);
    expect(empty.text).toBe('"Date (WAT)","Reference","Kind","Service","Country","Provider","Number","Code","Amount (NGN)","Status"\r\n');
    await pollerOf(orderId).stop();
  });

  it("quotes every field and defuses spreadsheet formulas in text", async () => {
    const user = await createUser();
    await env.DB.prepare("INSERT INTO ledger (user_id, key, amount_kobo, kind, note, ref, created_at) VALUES (?, ?, 12345, 'admin', ?, NULL, ?)")
      .bind(user.id, `admin:${crypto.randomUUID()}`, '=HYPERLINK("http://x","a")', Date.now())
      .run();
    const today = lagosDay(Date.now());
    const tx = await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, user.token);
    expect(tx.text).toContain(`"'=HYPERLINK(""http://x"",""a"")","123.45","successful",""`);
  });

  it("refuses a bad range with a clear 400 and a missing session with 401; another user's rows never appear", async () => {
    const user = await createUser();
    const other = await createUser({ balanceKobo: 100_000 });
    const today = lagosDay(Date.now());
    const bad = await csv(`/api/export/orders.csv?from=${today}&to=2020-01-01`, user.token);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).message).toMatch(/start date must be on or before/);
    expect((await csv("/api/export/orders.csv?from=2025-02-30&to=2025-03-01", user.token)).status).toBe(400);
    expect((await csv("/api/export/orders.csv?from=2020-01-01&to=2025-01-01", user.token)).status).toBe(400);
    expect((await csv(`/api/export/transactions.csv?from=${today}&to=${today}`)).status).toBe(401);
    const mine = await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, user.token);
    expect(mine.text.trimEnd().split("\r\n")).toHaveLength(1);
    expect(other.id).not.toBe(user.id);
  });

  it("a reseller's orders export lists its sub-accounts' orders with subaccount_id (empty for its own); a customer's has no such column", async () => {
    const user = await createUser({ balanceKobo: 500_000 });
    expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).status).toBe(200);
    const { secret } = await createKey(user, "live");
    const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, "idempotency-key": crypto.randomUUID(), ...extra });
    const sub = (await api("/api/v1/subaccounts", { method: "POST", headers: auth(), json: { name: "Ada", external_id: "tg-csv" } })).data.id as string;
    const idle = (await api("/api/v1/subaccounts", { method: "POST", headers: auth(), json: { name: "Bo", external_id: "tg-idle" } })).data.id as string;
    expect((await api(`/api/v1/subaccounts/${sub}/transfer-in`, { method: "POST", headers: auth(), json: { amount: 1000 } })).status).toBe(201);
    const theirs = await api("/api/v1/sms/orders", { method: "POST", headers: auth({ "x-subaccount": sub }), json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    expect(theirs.status).toBe(201);
    const mine = await api("/api/sms/get-number", { token: user.token, json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    const myOrder = mine.data.phone.request_id as string;
    const today = lagosDay(Date.now());

    const lines = (await csv(`/api/export/orders.csv?from=${today}&to=${today}`, user.token)).text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Date (WAT)","Reference","Kind","Service","Country","Provider","Number","Code","Amount (NGN)","Status","subaccount_id"');
    expect(lines).toHaveLength(3);
    expect(lines.filter((l) => l.endsWith(`,"${sub}"`))).toHaveLength(1);
    expect(lines.filter((l) => l.endsWith(",\"\"") || l.endsWith(","))).toHaveLength(1);
    expect(lines.some((l) => l.includes(idle))).toBe(false);
    expect(myOrder).toBeTruthy();

    // A customer with no sub-accounts keeps the plain columns.
    const plain = await createUser({ balanceKobo: 100_000 });
    const header = (await csv(`/api/export/orders.csv?from=${today}&to=${today}`, plain.token)).text.split("\r\n")[0];
    expect(header).toBe('"Date (WAT)","Reference","Kind","Service","Country","Provider","Number","Code","Amount (NGN)","Status"');
  });
  it("a reseller's transactions export lists its sub-accounts' ledger rows with subaccount_id (empty for its own); never another reseller's; the range honoured", async () => {
    const reseller = async (key: string) => {
      const user = await createUser({ balanceKobo: 500_000 });
      expect((await api("/api/reseller", { token: user.token, json: { accept_terms: true } })).status).toBe(200);
      const { secret } = await createKey(user, "live");
      const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, "idempotency-key": crypto.randomUUID(), ...extra });
      const sub = (await api("/api/v1/subaccounts", { method: "POST", headers: auth(), json: { name: "Ada", external_id: key } })).data.id as string;
      expect((await api(`/api/v1/subaccounts/${sub}/transfer-in`, { method: "POST", headers: auth(), json: { amount: 1000 } })).status).toBe(201);
      return { user, auth, sub };
    };
    const mine = await reseller("tg-tx");
    const theirs = await reseller("tg-tx");
    const idle = (await api("/api/v1/subaccounts", { method: "POST", headers: mine.auth(), json: { name: "Bo", external_id: "tg-idle" } })).data.id as string;
    const bought = await api("/api/v1/sms/orders", { method: "POST", headers: mine.auth({ "x-subaccount": mine.sub }), json: { provider: "Swift", country: "5", service: "sbxnosms" } });
    expect(bought.status).toBe(201);
    const orderId = bought.data.id as string;
    const today = lagosDay(Date.now());

    const lines = (await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, mine.user.token)).text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Date (WAT)","Reference","Description","Amount (NGN)","Status","Not moved (NGN)","subaccount_id"');
    const cells = lines.slice(1).map((l) => JSON.parse(`[${l}]`) as string[]);
    // The reseller's own rows: its opening credit and its side of the transfer, with an empty sub-account cell.
    const own = cells.filter((r) => r[6] === "");
    expect(own.map((r) => r[3]).sort()).toEqual(["-1000.00", "5000.00"]);
    // The sub-account's rows: the transfer's arrival and the purchase, naming it.
    const subRows = cells.filter((r) => r[6] === mine.sub);
    expect(subRows.map((r) => r[3])).toContain("1000.00");
    expect(subRows.filter((r) => r[1] === `buy:${orderId}`)).toHaveLength(1);
    expect(cells.every((r) => r[6] === "" || r[6] === mine.sub)).toBe(true);
    expect(lines.some((l) => l.includes(theirs.sub) || l.includes(idle))).toBe(false);
    // Both sides of every transfer are listed, so the column adds up to what reseller and sub-accounts hold together.
    const total = Math.round(cells.reduce((n, r) => n + Number(r[3]), 0) * 100);
    const held = await env.DB.prepare("SELECT SUM(balance_kobo) AS k FROM users WHERE id IN (?, ?)").bind(mine.user.id, mine.sub).first<{ k: number }>();
    expect(total).toBe(held!.k);

    // A range before any of it: the header (with the column: the account has sub-accounts) and nothing else.
    expect((await csv("/api/export/transactions.csv?from=2020-01-01&to=2020-01-31", mine.user.token)).text).toBe(
      '"Date (WAT)","Reference","Description","Amount (NGN)","Status","Not moved (NGN)","subaccount_id"\r\n',
    );
    // The other reseller sees its own sub-account's rows, never mine.
    const other = (await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, theirs.user.token)).text;
    expect(other).toContain(theirs.sub);
    expect(other).not.toContain(mine.sub);
    expect(other).not.toContain(orderId);
    await pollerOf(orderId).stop();
  });

  it("a customer with no sub-accounts keeps the transactions export's plain columns", async () => {
    const plain = await createUser({ balanceKobo: 100_000 });
    const today = lagosDay(Date.now());
    const lines = (await csv(`/api/export/transactions.csv?from=${today}&to=${today}`, plain.token)).text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Date (WAT)","Reference","Description","Amount (NGN)","Status","Not moved (NGN)"');
    expect(lines.slice(1).map((l) => JSON.parse(`[${l}]`).length)).toEqual([6]);
  });
});
