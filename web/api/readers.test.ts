import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SmsStatusResponse } from "../../schema/sms";
import { saveSession } from "../lib/session";
import { confirmCardPayment, initializeTransaction } from "./payments";
import { getRentStock } from "./rentals";
import { isSmsSettled } from "./sms";

// Issue 27 (decision 032): the server answers as the spec's original client reads it; our readers take the same
// answers. Each reader below is fed the server's exact body (docs/api.md) and must return what the screens use.

const user = { userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" };
const serve = (body: unknown, status = 200) => vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(body), { status })));

beforeEach(() => saveSession(user, "token-a"));
afterEach(() => vi.unstubAllGlobals());

describe("web readers of the original client's answers", () => {
  it("initialize-transaction: the checkout two levels down", async () => {
    serve({ data: { data: { checkout_url: "https://checkout.example/x", transaction_ref: "VNM1" } } });
    await expect(initializeTransaction(5000)).resolves.toEqual({ checkout_url: "https://checkout.example/x", transaction_ref: "VNM1" });
  });

  it("squad-callback: { data, message } is the outcome, null (pending) reads as pending", async () => {
    serve({ data: "success", message: "Payment confirmed successfully!" });
    await expect(confirmCardPayment("VNM1")).resolves.toBe("success");
    serve({ data: "failed", message: "Transaction not successful" });
    await expect(confirmCardPayment("VNM1")).resolves.toBe("failed");
    serve(null);
    await expect(confirmCardPayment("VNM1")).resolves.toBe("pending");
  });

  it("rent/countries: the limits under data", async () => {
    serve({ data: { limits: [{ country_id: "5", count: 3, cost: 12 }] }, price: 268.8, in_stock: true });
    const quote = await getRentStock({ countryId: "5", duration: "hour", period: 1 });
    expect(quote.data.limits[0]).toEqual({ country_id: "5", count: 3, cost: 12 });
  });

  it("sms/status: our screens read the server's `phase`, not the original client's `status` words", () => {
    const base = { request_id: "o1", attempts: 2, elapsed_seconds: 14, number: "1555", refunded: false, codes: [], chain: null } as unknown as SmsStatusResponse;
    expect(isSmsSettled({ ...base, status: "waiting", state: "waiting", phase: "waiting", sms: null, sms_code: null })).toBe(false);
    expect(isSmsSettled({ ...base, status: "pending", state: "pending", phase: "waiting", sms: null, sms_code: null })).toBe(false);
    expect(isSmsSettled({ ...base, status: "completed", state: "used", phase: "received", sms: "123456", sms_code: "123456" })).toBe(true);
    expect(isSmsSettled({ ...base, status: "error", state: "failed", phase: "error", sms: null, sms_code: null })).toBe(true);
    // "Try another number": a route that ended while the next is bought keeps polling until the next is named.
    const chain = { id: "c1", step: 1, max_routes: 3, cap: 200, status: "active" as const, next_request_id: null, moving_on: true };
    expect(isSmsSettled({ ...base, status: "timeout", state: "timeout", phase: "waiting", sms: null, sms_code: null, chain })).toBe(false);
    expect(isSmsSettled({ ...base, status: "timeout", state: "timeout", phase: "waiting", sms: null, sms_code: null, chain: { ...chain, next_request_id: "o2" } })).toBe(true);
  });
});
