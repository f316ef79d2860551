import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import lookupOk from "./fixtures/squad-payout-lookup-success.json?raw";
import lookupAuthFailed from "./fixtures/squad-payout-lookup-auth-failed.json?raw";
import transferOk from "./fixtures/squad-payout-transfer-success.json?raw";
import transferTimeout from "./fixtures/squad-payout-transfer-timeout.json?raw";
import { UpstreamFault } from "../upstream-http";
import { createSquadPayoutClient } from "./squad-payouts";
import { SANDBOX_SQUAD_MERCHANT_ID, openSandboxBankAccount, reverseSandboxTransfer, scriptNextTransfer, squadPayoutSimulator } from "../../sandbox/squad-payouts";
import { SQUAD_SIMULATOR_PATH } from "../../sandbox/squad";

/**
 * The payout adapter against fakes answering with Squad's documented samples
 * (https://squadinc.gitbook.io/squad-api-documentation/transfer-api), then against the sandbox simulator, which was
 * written from the same page.
 */

function fakeSquad(reply: (path: string, body: unknown) => Response) {
  const seen: { method: string; path: string; query: string; auth: string | undefined; body: unknown }[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const url = new URL(c.req.url);
    const text = c.req.method === "POST" ? await c.req.text() : "";
    const body = text ? JSON.parse(text) : null;
    seen.push({ method: c.req.method, path: url.pathname, query: url.search, auth: c.req.header("authorization"), body });
    return reply(url.pathname, body);
  });
  const client = createSquadPayoutClient({ baseUrl: "https://squad.test", secretKey: "sk_fake", merchantId: "SBABCKDY", fetch: (r) => Promise.resolve(app.fetch(r)), timeoutMs: 200 });
  return { client, seen };
}

const raw = (text: string, status = 200) => new Response(text, { status, headers: { "content-type": "application/json" } });
const json = (body: unknown, status = 200) => raw(JSON.stringify(body), status);

describe("Squad payout adapter, against the documented samples", () => {
  it("looks an account up with the documented body and reads the name", async () => {
    const { client, seen } = fakeSquad(() => raw(lookupOk));
    expect(await client.lookup({ bankCode: "000013", accountNumber: "0123456789" })).toEqual({ accountName: "JENNY SQUAD", accountNumber: "0123456789" });
    expect(seen[0]).toMatchObject({ method: "POST", path: "/payout/account/lookup", auth: "Bearer sk_fake", body: { bank_code: "000013", account_number: "0123456789" } });
  });

  it("an account Squad does not find is null; a wrong key is a refusal, not a missing account", async () => {
    expect(await fakeSquad(() => json({ status: 404, success: false, message: "Account not found", data: {} }, 404)).client.lookup({ bankCode: "000013", accountNumber: "0000000000" })).toBeNull();
    await expect(fakeSquad(() => raw(lookupAuthFailed, 403)).client.lookup({ bankCode: "000013", accountNumber: "0123456789" })).rejects.toBeInstanceOf(UpstreamFault);
  });

  it("sends a transfer with the merchant-prefixed reference, kobo as a string, NGN and the looked-up name", async () => {
    const { client, seen } = fakeSquad(() => raw(transferOk));
    expect(client.reference("wd_1")).toBe("SBABCKDY_wd_1");
    const sent = await client.transfer({ reference: "SBABCKDY_12345", amountKobo: 1_940_000, bankCode: "000013", accountNumber: "0123456789", accountName: "JENNY SQUAD", remark: "Cash out" });
    expect(sent).toEqual({ outcome: "paid", nipReference: "110059250901053503159119194486", description: "Approved or completed successfully" });
    expect(seen[0]?.body).toEqual({
      transaction_reference: "SBABCKDY_12345",
      amount: "1940000",
      bank_code: "000013",
      account_number: "0123456789",
      account_name: "JENNY SQUAD",
      currency_id: "NGN",
      remark: "Cash out",
    });
  });

  it("refuses to send a reference without the merchant prefix (Squad would refuse it)", async () => {
    const { client, seen } = fakeSquad(() => raw(transferOk));
    await expect(client.transfer({ reference: "12345", amountKobo: 100_000, bankCode: "000013", accountNumber: "0123456789", accountName: "A", remark: "x" })).rejects.toThrow(/merchant id/);
    expect(seen).toHaveLength(0);
  });

  it("a 424, a timeout or a 5xx is unknown (re-query), a 412 reversed, a 400 refused: each read once, nothing re-sent", async () => {
    const input = { reference: "SBABCKDY_1", amountKobo: 100_000, bankCode: "000013", accountNumber: "0123456789", accountName: "A", remark: "x" };
    const timeout = fakeSquad(() => raw(transferTimeout, 424));
    expect(await timeout.client.transfer(input)).toMatchObject({ outcome: "unknown" });
    expect(timeout.seen).toHaveLength(1);
    const hang = fakeSquad(() => new Promise<Response>(() => {}) as unknown as Response);
    expect(await hang.client.transfer(input)).toMatchObject({ outcome: "unknown" });
    expect(await fakeSquad(() => json({ success: false, message: "down" }, 502)).client.transfer(input)).toMatchObject({ outcome: "unknown" });
    expect(await fakeSquad(() => json({ status: 412, success: false, message: "Reversed", data: {} }, 412)).client.transfer(input)).toEqual({ outcome: "reversed", message: "Reversed" });
    expect(await fakeSquad(() => json({ status: 400, success: false, message: "Insufficient balance", data: {} }, 400)).client.transfer(input)).toEqual({ outcome: "refused", status: 400, message: "Insufficient balance" });
  });

  it("re-queries: success, failed, 412 reversed, 404 never received", async () => {
    const withStatus = (s: string) => fakeSquad(() => json({ status: 200, success: true, message: "Success", data: { ...JSON.parse(transferOk).data, transaction_status: s } }));
    expect(await withStatus("success").client.requery("SBABCKDY_12345")).toMatchObject({ status: "success", amountKobo: 1_940_000 });
    expect(await withStatus("failed").client.requery("SBABCKDY_12345")).toMatchObject({ status: "failed" });
    expect(await withStatus("pending").client.requery("SBABCKDY_12345")).toMatchObject({ status: "pending" });
    expect(await fakeSquad(() => json({ success: false, message: "reversed" }, 412)).client.requery("SBABCKDY_12345")).toMatchObject({ status: "reversed" });
    expect(await fakeSquad(() => json({ success: false, message: "Transaction not found" }, 404)).client.requery("SBABCKDY_x")).toBeNull();
    const seen = fakeSquad(() => json({ status: 200, success: true, data: JSON.parse(transferOk).data }));
    await seen.client.requery("SBABCKDY_12345");
    expect(seen.seen[0]).toMatchObject({ method: "POST", path: "/payout/requery", body: { transaction_reference: "SBABCKDY_12345" } });
  });

  it("lists transfers page by page (page, perPage, dir)", async () => {
    const { client, seen } = fakeSquad(() => json({ status: 200, success: true, data: [JSON.parse(transferOk).data] }));
    const list = await client.listTransfers();
    expect(list).toEqual([expect.objectContaining({ transactionReference: "SBABCKDY_12345", status: "success", amountKobo: 1_940_000 })]);
    expect(seen[0]).toMatchObject({ method: "GET", path: "/payout/list" });
    expect(seen[0]?.query).toContain("perPage=100");
  });
});

describe("the sandbox payout simulator through the real adapter", () => {
  const client = () =>
    createSquadPayoutClient({
      baseUrl: `https://sandbox.test${SQUAD_SIMULATOR_PATH}`,
      secretKey: env.SQUAD_SECRET_KEY ?? "",
      merchantId: SANDBOX_SQUAD_MERCHANT_ID,
      fetch: (r) => Promise.resolve(squadPayoutSimulator.fetch(r, env)),
    });
  const account = { bankCode: "000013", accountNumber: "0987654321" };

  it("finds an opened account, not another; pays; a reused reference is refused", async () => {
    await openSandboxBankAccount(env, { bank_code: "000013", account_number: "0987654321", account_name: "Ada Obi" });
    expect(await client().lookup(account)).toEqual({ accountName: "ADA OBI", accountNumber: "0987654321" });
    expect(await client().lookup({ bankCode: "000013", accountNumber: "0987654320" })).toBeNull();
    const ref = `${SANDBOX_SQUAD_MERCHANT_ID}_sim_paid`;
    const first = await client().transfer({ reference: ref, amountKobo: 150_000, ...account, accountName: "ADA OBI", remark: "cash out" });
    expect(first.outcome).toBe("paid");
    expect(await client().requery(ref)).toMatchObject({ status: "success", amountKobo: 150_000 });
    expect(await client().transfer({ reference: ref, amountKobo: 150_000, ...account, accountName: "ADA OBI", remark: "again" })).toMatchObject({ outcome: "refused", status: 400 });
    expect((await client().listTransfers()).some((t) => t.transactionReference === ref)).toBe(true);
  });

  it("scripted: a timeout re-queries as paid, a failure as failed, a reversal as 412", async () => {
    await openSandboxBankAccount(env, { bank_code: "000013", account_number: "0987654321", account_name: "Ada Obi" });
    const send = (ref: string) => client().transfer({ reference: ref, amountKobo: 100_000, ...account, accountName: "ADA OBI", remark: "x" });
    await scriptNextTransfer(env, "timeout");
    expect(await send(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_t`)).toMatchObject({ outcome: "unknown" });
    expect(await client().requery(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_t`)).toMatchObject({ status: "success" });
    await scriptNextTransfer(env, "fail");
    expect(await send(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_f`)).toMatchObject({ outcome: "unknown" });
    expect(await client().requery(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_f`)).toMatchObject({ status: "failed" });
    await scriptNextTransfer(env, "reverse");
    expect(await send(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_r`)).toMatchObject({ outcome: "paid" });
    expect(await client().requery(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_r`)).toMatchObject({ status: "reversed" });
    expect(await send(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_later`)).toMatchObject({ outcome: "paid" });
    expect(await reverseSandboxTransfer(env, `${SANDBOX_SQUAD_MERCHANT_ID}_sim_later`)).toBe(true);
    expect(await client().requery(`${SANDBOX_SQUAD_MERCHANT_ID}_sim_later`)).toMatchObject({ status: "reversed" });
  });

  it("refuses without the merchant prefix, a wrong key, and no key", async () => {
    const res = await squadPayoutSimulator.fetch(
      new Request(`https://sandbox.test${SQUAD_SIMULATOR_PATH}/payout/transfer`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.SQUAD_SECRET_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ transaction_reference: "12345", amount: "100", bank_code: "000013", account_number: "0987654321", account_name: "A", currency_id: "NGN", remark: "x" }),
      }),
      env,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/merchant ID/);
    const wrong = createSquadPayoutClient({ baseUrl: `https://sandbox.test${SQUAD_SIMULATOR_PATH}`, secretKey: "nope", merchantId: SANDBOX_SQUAD_MERCHANT_ID, fetch: (r) => Promise.resolve(squadPayoutSimulator.fetch(r, env)) });
    await expect(wrong.lookup(account)).rejects.toBeInstanceOf(UpstreamFault);
  });
});
