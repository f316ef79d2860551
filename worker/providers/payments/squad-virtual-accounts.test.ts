import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { UpstreamFault } from "../upstream-http";
import { createSquadVirtualAccountClient, nairaStringToKobo, squadDate } from "./squad-virtual-accounts";
import { transferNoticeKind, verifyTransferNotice } from "./squad-transfer-webhooks";

/**
 * The virtual-account adapter and the notification check against fakes that answer with Squad's documented samples
 * (https://docs.squadco.com/Virtual-accounts/dynamic-virtual-account-v2, https://docs.squadco.com/Virtual-accounts/api-specifications).
 */

function fakeSquad(reply: (path: string, url: URL, body: unknown) => Response) {
  const seen: { method: string; path: string; query: string; auth: string | undefined; body: unknown }[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const url = new URL(c.req.url);
    const text = c.req.method === "POST" ? await c.req.text() : "";
    const body = text ? JSON.parse(text) : null;
    seen.push({ method: c.req.method, path: url.pathname, query: url.search, auth: c.req.header("authorization"), body });
    return reply(url.pathname, url, body);
  });
  const client = createSquadVirtualAccountClient({ baseUrl: "https://squad.test", secretKey: "sk_fake", fetch: (r) => Promise.resolve(app.fetch(r)), timeoutMs: 200 });
  return { client, seen };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("Squad virtual-account adapter", () => {
  it("initiates a dynamic account with the documented body (kobo, seconds, email, our ref) and reads the documented reply", async () => {
    const { client, seen } = fakeSquad(() =>
      json({
        status: 200,
        success: true,
        message: "Success",
        data: { is_blocked: false, account_name: "SQUAD CHECKOUT", account_number: "4879261135", expected_amount: "100.00", expires_at: "2023-08-08T08:23:27.791Z", transaction_reference: "dva123", bank: "GTBank", currency: "NGN" },
      }),
    );
    const account = await client.initiateDynamic({ amountKobo: 10_000, durationSeconds: 600, email: "a@b.co", transactionRef: "dva123" });
    expect(account).toEqual({
      accountNumber: "4879261135",
      accountName: "SQUAD CHECKOUT",
      bankName: "GTBank",
      expectedKobo: 10_000,
      expiresAt: Date.parse("2023-08-08T08:23:27.791Z"),
      transactionReference: "dva123",
    });
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/virtual-account/initiate-dynamic-virtual-account",
      auth: "Bearer sk_fake",
      body: { amount: 10_000, duration: 600, email: "a@b.co", transaction_ref: "dva123" },
    });
  });

  it("re-queries every attempt of a reference (the documented sample), an unknown one is no attempt, a 403 is a refusal", async () => {
    const sample = {
      status: 200,
      success: true,
      message: "Success",
      data: {
        count: 3,
        rows: [
          { transaction_status: "EXPIRED", transaction_reference: "Aq1111BddCDqdddqdqqEw4", created_at: "2023-08-08T07:02:59.672Z", refund: false },
          { transaction_status: "SUCCESS", transaction_reference: "Aq1111BddCDqdddqdqqEw4", created_at: "2023-08-08T07:02:54.052Z", refund: null },
          { transaction_status: "MISMATCH", transaction_reference: "Aq1111BddCDqdddqdqqEw4", created_at: "2023-08-08T07:02:29.392Z", refund: false },
        ],
      },
    };
    const { client, seen } = fakeSquad((path) =>
      path.endsWith("/nope") ? json({ status: 404, success: false, message: "Transaction not found", data: {} }, 404) : path.endsWith("/forbidden") ? json({ success: false, message: "Merchant authentication failed", data: {} }, 403) : json(sample),
    );
    expect((await client.requeryDynamic("Aq1111BddCDqdddqdqqEw4")).map((a) => a.status)).toEqual(["EXPIRED", "SUCCESS", "MISMATCH"]);
    expect(seen[0]!.path).toBe("/virtual-account/get-dynamic-virtual-account-transactions/Aq1111BddCDqdddqdqqEw4");
    expect(await client.requeryDynamic("nope")).toEqual([]);
    await expect(client.requeryDynamic("forbidden")).rejects.toBeInstanceOf(UpstreamFault);
  });

  it("creates a customer account with the documented fields and reads the account number", async () => {
    const { client, seen } = fakeSquad(() =>
      json({
        success: true,
        message: "Success",
        data: { first_name: "Joesph", last_name: "Ayodele", bank_code: "058", virtual_account_number: "7834927713", beneficiary_account: "4920299492", customer_identifier: "CCC", created_at: "2022-03-29T13:17:52.832Z", updated_at: "2022-03-29T13:17:52.832Z" },
      }),
    );
    const out = await client.createStaticAccount({ customerIdentifier: "CCC", firstName: "Joesph", lastName: "Ayodele", mobileNumber: "08123456789", dob: "07/19/1990", bvn: "22343211654", gender: "1", address: "22 Kota street" });
    expect(out).toEqual({ accountNumber: "7834927713", customerIdentifier: "CCC", accountName: "Joesph Ayodele", bankCode: "058" });
    expect(seen[0]).toMatchObject({ path: "/virtual-account", body: { customer_identifier: "CCC", dob: "07/19/1990", gender: "1", bvn: "22343211654", mobile_num: "08123456789" } });
  });

  it("a BVN refusal (400 Validation Failure) is a rejected fault, not a crash", async () => {
    const { client } = fakeSquad(() => json({ status: 400, success: false, message: "Validation Failure, Customer identifier is required", data: {} }, 400));
    await expect(client.createStaticAccount({ customerIdentifier: "", firstName: "a", lastName: "b", mobileNumber: "0", dob: "01/01/1990", bvn: "1", gender: "1", address: "x" })).rejects.toMatchObject({ reason: "rejected" });
  });

  it("finds one transaction by reference and lists a day with MM-DD-YYYY dates and pages", async () => {
    const row = (ref: string) => ({
      transaction_reference: ref,
      virtual_account_number: "0713810881",
      principal_amount: "50.00",
      settled_amount: "49.75",
      fee_charged: "0.25",
      transaction_date: "2022-10-07T00:00:00.000Z",
      transaction_indicator: "C",
      remarks: "Transfer FROM Sample",
      currency: "NGN",
      alerted_merchant: false,
      frozen_transaction: null,
      customer: { customer_identifier: "CCC1234334" },
    });
    const { client, seen } = fakeSquad((_p, url) => {
      const ref = url.searchParams.get("transactionReference");
      return json({ status: 200, success: true, message: "Success", data: { count: 1, rows: ref === "missing" ? [] : [row(ref ?? "REF20221007130357_1")], query: {} } });
    });
    expect(await client.findTransaction("REF20221007130357_1")).toEqual({
      transactionReference: "REF20221007130357_1",
      accountNumber: "0713810881",
      principalKobo: 5000,
      settledKobo: 4975,
      indicator: "C",
      currency: "NGN",
      transactionDate: "2022-10-07T00:00:00.000Z",
      customerIdentifier: "CCC1234334",
    });
    expect(await client.findTransaction("missing")).toBeNull();
    expect(await client.listTransactions("2022-10-07")).toHaveLength(1);
    expect(seen[2]!.query).toContain("startDate=10-07-2022");
    expect(seen[2]!.query).toContain("endDate=10-07-2022");
  });

  it("reads naira strings exactly", () => {
    expect(nairaStringToKobo("100.00")).toBe(10_000);
    expect(nairaStringToKobo("0.2")).toBe(20);
    expect(nairaStringToKobo("45000")).toBe(4_500_000);
    expect(nairaStringToKobo("-1")).toBeNull();
    expect(nairaStringToKobo("1e5")).toBeNull();
    expect(squadDate("2022-09-19")).toBe("09-19-2022");
  });
});

describe("Squad's virtual-account notifications", () => {
  // The digests below come from Node's crypto.createHmac("sha512", "sandbox_sk_test"), an implementation independent
  // of ours, over the documented signed text. (Squad's own sample digests cannot serve: the dynamic one is 129 hex
  // characters, and the static v2 one does not reproduce from its printed inputs.)
  const dynamicBody = {
    transaction_status: "SUCCESS",
    merchant_reference: "test55",
    merchant_amount: "100.00",
    amount_received: "100.00",
    transaction_reference: "REF20250321S51557521_M01282553_0855445055",
    email: "williamudousoro@gmail.com",
    merchant_id: "P7SJ3KMH",
    sub_merchant_id: null,
    transaction_type: "dynamic_virtual_account",
    date: "2025-03-21T08:52:42.729Z",
    sender_name: "WILLIAM  JOSEPH UDOUSORO",
  };
  const dynamicSig = "c03471aefde7aec785e9e7c92c79d8d4c39477e6c7ba3d5779e600c491dc25880208388e44e5a980d68f3747bb02a41c1a0b73672e29fa8c41dfb3bb6e652bbd";
  const staticBody = {
    transaction_reference: "REF20260424S67978035_M01682015_9013151600",
    virtual_account_number: "9013151600",
    principal_amount: "1.00",
    settled_amount: "1.00",
    fee_charged: "0.00",
    transaction_date: "2026-04-24T11:29:10+01:00",
    customer_identifier: "newva1",
    transaction_indicator: "C",
    currency: "NGN",
    channel: "virtual-account",
    sender_name: "AKINOLA MOBOLAJI NIFEMI",
    version: "v2",
  };
  const staticSig = "2ecd633c748382cd453f39cdd3d7480ea0b8f1cc7667334396e5fd6593a0099d1ba65e87bdeaa2307b1b63a7557c4081557cb07a468b8be8ca13dcc53e9d9bdd";

  it("tells dynamic, static and card bodies apart", () => {
    expect(transferNoticeKind(dynamicBody)).toBe("dynamic");
    expect(transferNoticeKind(staticBody)).toBe("static");
    expect(transferNoticeKind({ Event: "charge_successful", TransactionRef: "x" })).toBeNull();
    expect(transferNoticeKind([1])).toBeNull();
  });

  it("verifies the dynamic hash (x-squad-encrypted-body over the three documented fields), upper or lower case", async () => {
    const raw = JSON.stringify(dynamicBody);
    expect(await verifyTransferNotice("sandbox_sk_test", raw, { encryptedBody: dynamicSig })).toMatchObject({ kind: "dynamic", notice: { merchant_reference: "test55" } });
    expect(await verifyTransferNotice("sandbox_sk_test", raw, { encryptedBody: dynamicSig.toUpperCase() })).not.toBeNull();
    expect(await verifyTransferNotice("sandbox_sk_test", JSON.stringify({ ...dynamicBody, amount_received: "1000.00" }), { encryptedBody: dynamicSig })).toBeNull();
    expect(await verifyTransferNotice("other_key", raw, { encryptedBody: dynamicSig })).toBeNull();
    expect(await verifyTransferNotice("sandbox_sk_test", raw, {})).toBeNull();
  });

  it("verifies the static v2 hash (x-squad-signature over the six piped fields) and v1 (the entire raw body)", async () => {
    const raw = JSON.stringify(staticBody);
    expect(await verifyTransferNotice("sandbox_sk_test", raw, { signature: staticSig })).toMatchObject({ kind: "static" });
    expect(await verifyTransferNotice("sandbox_sk_test", JSON.stringify({ ...staticBody, principal_amount: "100.00" }), { signature: staticSig })).toBeNull();
    const v1 = JSON.stringify({ ...staticBody, version: undefined });
    const { hmacSha512Hex } = await import("./signatures");
    expect(await verifyTransferNotice("sandbox_sk_test", v1, { signature: await hmacSha512Hex("sandbox_sk_test", v1) })).toMatchObject({ kind: "static" });
    expect(await verifyTransferNotice("sandbox_sk_test", v1 + " ", { signature: await hmacSha512Hex("sandbox_sk_test", v1) })).toBeNull();
  });
});
