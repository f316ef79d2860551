import { createRequire } from "node:module";
import { Validator } from "@seriousme/openapi-schema-validator";
import { E2E_BASE_URL } from "../playwright.config";
import { axeDialogEverywhere } from "./axe";
import { expect, test, balanceOf, openSignedIn, signUpViaApi } from "./support";

// The developer API as its users meet it: an open-source SMS-Activate client library (npm "sms-activate", written by
// someone else, unchanged) pointed at our /stubs/handler_api.php over real HTTP, and the OpenAPI document checked by an
// OpenAPI 3.1 validator.

const require = createRequire(import.meta.url);
// CommonJS, axios inside; its base URL is the one thing a user changes to switch providers.
const SMSActivate = require("sms-activate") as new (key: string) => {
  session: { defaults: { baseURL: string } };
  getBalance(withCashBack?: boolean): Promise<number | null>;
  getNumber(service: string, country?: number): Promise<{ id: number; number: number } | null>;
  getCode(id: number): Promise<string | null>;
  getStatus(id: number): Promise<string>;
  setStatus(id: number, status: number): Promise<string>;
};

async function verifiedUserWithTestKey(request: import("@playwright/test").APIRequestContext) {
  const session = await signUpViaApi(request, "devapi");
  const headers = { authorization: `Bearer ${session.token}` };
  // Creating a key needs a verified e-mail: follow the link from the local outbox.
  let link: string | undefined;
  await expect(async () => {
    const outbox = await (await request.get(`/sandbox/outbox.json?to=${encodeURIComponent(session.user.userEmail)}`)).json();
    link = (outbox.data as { link: string | null }[]).map((e) => e.link).find((l) => l?.includes("verify-email")) ?? undefined;
    expect(link).toBeTruthy();
  }).toPass();
  const params = new URLSearchParams(link!.split("?")[1]);
  expect((await request.post("/api/verify-email", { data: { id: params.get("id"), token: params.get("token") } })).status()).toBe(200);
  const created = await request.post("/api/keys", { headers, data: { name: "client library", mode: "test" } });
  expect(created.status()).toBe(201);
  const topUp = await request.post("/api/keys/sandbox/top-up", { headers, data: { amount: 20_000 } });
  expect((await topUp.json()).balance).toBe(20_000);
  return { session, secret: (await created.json()).secret as string };
}

test("an SMS-Activate client library buys a number, reads its code, completes it, and cancels another", async ({ request }) => {
  const { secret } = await verifiedUserWithTestKey(request);
  const client = new SMSActivate(secret);
  client.session.defaults.baseURL = `${E2E_BASE_URL}/stubs/handler_api.php`;

  expect(await client.getBalance()).toBe(20_000);
  // Its getBalance(true) calls getBalanceAndCashBack (issue 27): the same balance, we keep no cashback account.
  expect(await client.getBalance(true)).toBe(20_000);
  const bought = await client.getNumber("wa", 187);
  expect(bought).not.toBeNull();
  expect(bought!.id).toBeGreaterThan(0);
  expect(String(bought!.number)).toMatch(/^1\d{10}$/);
  expect(await client.getStatus(bought!.id)).toBe("STATUS_WAIT_CODE");
  expect(await client.setStatus(bought!.id, 1)).toBe("ACCESS_READY");

  // The sandbox delivers the code about SANDBOX_SMS_DELAY_MS after purchase; the client polls like its README does.
  let code: string | null = null;
  await expect(async () => {
    code = await client.getCode(bought!.id);
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 45_000, intervals: [1000] });
  expect(await client.setStatus(bought!.id, 6)).toBe("ACCESS_ACTIVATION");
  const afterBuy = await client.getBalance();
  expect(afterBuy).toBeLessThan(20_000);

  // A second number, cancelled before its code: the price comes back.
  const second = await client.getNumber("sbxnosms", 187);
  expect(await client.getBalance()).toBeLessThan(afterBuy!);
  expect(await client.setStatus(second!.id, 8)).toBe("ACCESS_CANCEL");
  expect(await client.getStatus(second!.id)).toBe("STATUS_CANCEL");
  expect(await client.getBalance()).toBe(afterBuy);

  // Its error handling sees our words: an unknown activation is NO_ACTIVATION (it throws InvalidActivation).
  await expect(client.getStatus(999_999_999)).rejects.toThrow("Invalid activation id");
  const stranger = new SMSActivate(`sk_test_${"x".repeat(32)}`);
  stranger.session.defaults.baseURL = client.session.defaults.baseURL;
  await expect(stranger.getBalance()).rejects.toThrow("Invalid API Key");
});

test("the OpenAPI document is valid OpenAPI 3.1 and the JSON API answers as it says", async ({ request }) => {
  const doc = await (await request.get("/api/v1/openapi.json")).json();
  const validator = new Validator();
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/balance", "/prices", "/sms/orders", "/sms/orders/{id}", "/rentals"]));

  const { secret } = await verifiedUserWithTestKey(request);
  const balance = await request.get("/api/v1/balance", { headers: { authorization: `Bearer ${secret}` } });
  expect(await balance.json()).toEqual({ balance: 20_000, currency: "NGN", mode: "test" });
});

test("Settings → API: a test key is created and shown once, the test wallet is topped up, the reference page has copyable examples", async ({ page, request }) => {
  const session = await signUpViaApi(request, "devapi-ui");
  // Verify the address first (creating keys needs it), by the e-mailed link.
  let link: string | undefined;
  await expect(async () => {
    const outbox = await (await request.get(`/sandbox/outbox.json?to=${encodeURIComponent(session.user.userEmail)}`)).json();
    link = (outbox.data as { link: string | null }[]).map((e) => e.link).find((l) => l?.includes("verify-email")) ?? undefined;
    expect(link).toBeTruthy();
  }).toPass();
  const params = new URLSearchParams(link!.split("?")[1]);
  expect((await request.post("/api/verify-email", { data: { id: params.get("id"), token: params.get("token") } })).status()).toBe(200);

  await openSignedIn(page, session, "#/settings/1");
  await expect(page.getByRole("heading", { name: "API" })).toBeVisible();
  await page.getByRole("textbox", { name: "Key name" }).fill("Journey bot");
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  const secret = (await dialog.getByTestId("shown-once-secret").first().textContent()) ?? "";
  expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
  // Issue 18: axe on the shown-once dialog, both themes and widths.
  const createdProblems = await axeDialogEverywhere(page, "API key created dialog");
  expect(createdProblems, createdProblems.join("\n")).toEqual([]);
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  // Shown once: the list has the name and the prefix, never the secret.
  const row = page.getByRole("list", { name: "API keys" }).getByTestId("api-key");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Journey bot");
  await expect(row).toContainText(`${secret.slice(0, 14)}…`);
  await expect(page.getByText(secret)).toHaveCount(0);
  // The revoke confirmation (axe on it), left with "Keep it": the key stays live for the rest of the journey.
  await row.getByRole("button", { name: "Revoke Journey bot" }).click();
  const revoke = page.getByRole("dialog", { name: 'Revoke "Journey bot"?' });
  await expect(revoke).toBeVisible();
  const revokeProblems = await axeDialogEverywhere(page, "Revoke API key dialog");
  expect(revokeProblems, revokeProblems.join("\n")).toEqual([]);
  await revoke.getByRole("button", { name: "Keep it" }).click();
  await expect(revoke).toHaveCount(0);

  await page.getByRole("button", { name: "Add ₦5,000 test money" }).click();
  await expect(page.getByTestId("sandbox-balance")).toContainText("₦5,000.00");
  const balance = await request.get("/api/v1/balance", { headers: { authorization: `Bearer ${secret}` } });
  expect(await balance.json()).toEqual({ balance: 5000, currency: "NGN", mode: "test" });
  // The real wallet did not move.
  expect(await balanceOf(request, session.token)).toBe(0);

  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page.getByRole("heading", { name: "Developer API reference" })).toBeVisible();
  const doc = await (await request.get("/api/v1/openapi.json")).json();
  await expect(page.getByTestId("api-operation")).toHaveCount(Object.values(doc.paths as Record<string, object>).reduce((n, m) => n + Object.keys(m).length, 0));
  await expect(page.getByTestId("api-base-url")).toHaveText(doc.servers[0].url);
  const buy = page.locator("section", { has: page.getByRole("heading", { name: /POST\s*\/sms\/orders$/ }) });
  await expect(buy.locator("pre").first()).toContainText("Idempotency-Key");
  await expect(buy.getByRole("button", { name: "Copy curl: POST /sms/orders" })).toBeVisible();
  await expect(buy.getByRole("button", { name: "Copy JavaScript: POST /sms/orders" })).toBeVisible();
});
