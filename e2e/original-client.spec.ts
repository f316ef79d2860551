import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_OTHER_CLIENT_ORIGIN } from "../playwright.config";
import { expect, test } from "./support";

/**
 * Issue 27 (decision 032): the spec's original web client, on another origin, through its core flows. A blank page is
 * served on that origin (allowed by CORS_ORIGINS, playwright.config.ts) and every call is a real cross-origin fetch
 * from Chromium, read as that client's axios reads it (`response.data` is the body): sign up, fund by card through the
 * sandbox checkout, see an SMS code, rent a number, log out.
 */

let otherClient: Server;
test.beforeAll(async () => {
  otherClient = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Original client</title>"));
  const { port } = new URL(E2E_OTHER_CLIENT_ORIGIN);
  await new Promise<void>((resolve) => otherClient.listen(Number(port), "127.0.0.1", resolve));
});
test.afterAll(() => new Promise<void>((resolve) => otherClient.close(() => resolve())));

type Reply = { status: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One call the way the client's axios instance makes it: JSON, credentials, the bearer token and its auth marker. */
async function call(page: Page, method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Reply> {
  return page.evaluate(
    async ({ api, method, path, token, body }) => {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (token) Object.assign(headers, { Authorization: `Bearer ${token}`, "x-requires-auth": "true" });
      const res = await fetch(`${api}${path}`, { method, headers, credentials: "include", body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, data: text ? JSON.parse(text) : "" };
    },
    { api: E2E_BASE_URL, method, path, token: opts.token, body: opts.body },
  );
}

test("the original client funds by card, sees an SMS code and rents a number from another origin", async ({ page }) => {
  await page.goto(`${E2E_OTHER_CLIENT_ORIGIN}/`);
  const email = `original-${Date.now()}@example.com`;
  const signup = await call(page, "POST", "/api/register/", { body: { username: "Original", number: "08031234567", email, password: "secret123", referralCode: "" } });
  expect(signup.status).toBe(201);
  const token = signup.data.token as string;
  const user = signup.data.user as { userId: string; userEmail: string };

  // A 404 reaches the page as a 404 (with CORS headers), not as a network error.
  expect((await call(page, "GET", "/api/no-such-call")).status).toBe(404);

  // Fund by card: response.data.data.data.checkout_url; squad-callback is falsy while pending, then data === "success".
  const init = await call(page, "POST", "/api/initialize-transaction", { token, body: { id: user.userId, email: user.userEmail, amount: 5000, currency: "NGN" } });
  const { checkout_url, transaction_ref } = init.data.data.data;
  expect(checkout_url).toEqual(expect.any(String));
  expect((await call(page, "POST", "/api/squad-callback", { token, body: { transaction_ref } })).data).toBeFalsy();
  await page.goto(checkout_url);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/reference=/);
  await page.goto(`${E2E_OTHER_CLIENT_ORIGIN}/dashboard/1?reference=${transaction_ref}`);
  const confirmed = await call(page, "POST", "/api/squad-callback", { token, body: { transaction_ref } });
  expect(confirmed.data.data === "success").toBe(true);
  expect(confirmed.data.message).toBe("Payment confirmed successfully!");
  expect((await call(page, "GET", "/api/user-balance", { token })).data.balance).toBe(5000);

  // Prices as the client shows them: no provider on countries or price; /costs signed out; get-rate's first row.
  const countries = (await call(page, "GET", "/api/sms/countries")).data as { id: string; title: string }[];
  expect(countries[0]).toEqual({ id: "5", title: "USA" });
  const rate = (await call(page, "GET", "/api/get-rate", { token })).data[0].rate as number;
  const costs = (await call(page, "GET", "/api/costs")).data[0] as { low_cost: number; high_cost: number };
  const wa = Object.values((await call(page, "GET", "/api/sms/price?id=5")).data as Record<string, { application_id: string; cost: number }>).find(
    (e) => e.application_id === "wa",
  )!;
  const base = (wa.cost / 100) * rate;
  const shown = (base * (1 + (base <= 1000 ? costs.low_cost : costs.high_cost))).toFixed(2);

  // Buy, then "Check Now" until the code is there, then the 5 s status poll's view of it.
  const buy = await call(page, "POST", "/api/sms/get-number", {
    token,
    body: { provider: "Swift", country: "5", service: "wa", user_id: user.userId, email, price: shown, actual: wa.cost },
  });
  expect(buy.status).toBe(200);
  const requestId = buy.data.phone.request_id as string;
  expect(buy.data.table.purchased_number).toMatch(/^\d+$/);
  await expect
    .poll(async () => (await call(page, "POST", `/api/sms/check/${requestId}`, { token, body: {} })).data.success, { timeout: 30_000, intervals: [1000] })
    .toBe(true);
  const status = (await call(page, "GET", `/api/sms/status/${requestId}?cost=${wa.cost}&user_id=${user.userId}&debitref=${buy.data.debitRef}`, { token })).data;
  expect(status.status).toBe("completed");
  expect(status.sms_code).toMatch(/^\d{6}$/);
  expect(typeof status.attempts).toBe("number");
  expect(typeof status.elapsed_seconds).toBe("number");
  const ack = await call(page, "POST", "/sms/code-success", { token, body: { debitRef: buy.data.debitRef } });
  expect([ack.status, ack.data]).toEqual([200, {}]);

  // Rent: the quote signed out (`const { data } = body; data.limits[0]`), renting with the token at that price.
  const quote = await call(page, "POST", "/api/rent/countries", { body: { countryId: "5", duration: "hour", period: 1, price: "", user_id: "" } });
  const { data } = quote.data;
  expect(data.limits[0]).toMatchObject({ country_id: "5", cost: expect.any(Number) });
  expect(quote.data.in_stock).toBe(true);
  const rented = await call(page, "POST", "/api/rent-number", { token, body: { countryId: "5", duration: "hour", period: 1, price: quote.data.price, user_id: user.userId } });
  expect(rented.status).toBe(201);
  expect(rented.data.number).toMatch(/^\d{8,15}$/);
  expect((await call(page, "GET", "/api/user-balance", { token })).data.balance).toBeCloseTo(5000 - Number(shown) - quote.data.price, 2);

  // Ads the client can show and follow from its own origin; logging out twice is 2xx both times.
  const ads = (await call(page, "GET", "/api/ads")).data.data as { url: string; link: string }[];
  expect(ads[0].url.startsWith(`${E2E_BASE_URL}/ads/`)).toBe(true);
  expect((await call(page, "POST", "/api/logout/", { token })).status).toBe(200);
  expect((await call(page, "POST", "/api/logout/", { token })).status).toBe(200);
});
