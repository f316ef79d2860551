import { execFileSync } from "node:child_process";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_ALONE_PORT, e2ePersistDir } from "../playwright.config";
import { ALONE, expect, fundViaSandbox, openSignedIn, signInBrowser, signUpViaApi, test, type Session } from "./support";

// Issue 46's journey: a customer becomes a reseller on the partner page, opens two sub-accounts through the API, funds
// one, sets a markup (on the partner page's form) and buys as it (X-Subaccount), sees the margin credited when the code comes, an operator refunds
// that order and the margin is reversed, and the other sub-account is closed. ALONE.operator: it grants an operator
// with the CLI, which opens the alone server's database (playwright.config.ts).

const persistTo = e2ePersistDir(E2E_ALONE_PORT);
const adminCli = (...args: string[]) =>
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--persist-to", persistTo, "--actor", "e2e-resellers"], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function verifyEmail(request: APIRequestContext, session: Session) {
  let link: string | undefined;
  await expect(async () => {
    const outbox = await (await request.get(`/sandbox/outbox.json?to=${encodeURIComponent(session.user.userEmail)}`)).json();
    link = (outbox.data as { link: string | null }[]).map((e) => e.link).find((l) => l?.includes("verify-email")) ?? undefined;
    expect(link).toBeTruthy();
  }).toPass();
  const params = new URLSearchParams(link!.split("?")[1]);
  expect((await request.post("/api/verify-email", { data: { id: params.get("id"), token: params.get("token") } })).status()).toBe(200);
}

async function operatorWithTwoFactor(request: APIRequestContext): Promise<Session> {
  const operator = await signUpViaApi(request, "reseller-operator", "Ngozi");
  expect(adminCli("grant-operator", operator.user.userEmail, "--reason", "e2e resellers")).toContain("is now an operator");
  const setup = await (await request.post("/api/2fa/setup", { headers: auth(operator.token) })).json();
  const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(setup.secret) }).generate();
  expect((await request.post("/api/2fa/enable", { headers: auth(operator.token), data: { code } })).ok()).toBe(true);
  return operator;
}

test("a reseller opens two sub-accounts, funds one, buys as it with a markup, earns the margin, sees it reversed on a refund, and closes the other", ALONE.operator, async ({ page, browser, request }) => {
  test.setTimeout(150_000);
  const reseller = await signUpViaApi(request, "reseller", "Tunde");
  await verifyEmail(request, reseller);
  await fundViaSandbox(request, reseller, 10_000);

  // Become a reseller on the partner page (the terms accepted by a tick).
  await openSignedIn(page, reseller, "#/partner/1");
  await page.getByLabel("I accept the reseller terms").check();
  await page.getByRole("button", { name: "Become a reseller" }).click();
  await expect(page.getByTestId("no-subaccounts")).toBeVisible();
  await expect(page.getByTestId("margin-earned")).toHaveText("₦0.00");
  // Its wholesale tier (decision 074): nothing spent yet, so the first tier and what the next one needs.
  await expect(page.getByTestId("wholesale-next")).toHaveText("₦250,000.00 more spend to the next tier (Wholesale 5, 5% off).");

  // The markup, set on the partner page's form (decision 076): above the ceiling is refused at its input, then saved.
  const flat = page.getByLabel("Flat markup (%)");
  await expect(flat).toHaveValue("0");
  await flat.fill("150");
  await page.getByRole("button", { name: "Save markups" }).click();
  await expect(page.getByText("A markup is at most 100%.")).toBeVisible();
  await expect(flat).toHaveAttribute("aria-invalid", "true");
  await flat.fill("20");
  await page.getByRole("button", { name: "Save markups" }).click();
  await expect(page.getByText("Markups saved.")).toBeVisible();

  // The bot's side: a live key, two sub-accounts, a markup, money into one.
  const created = await request.post("/api/keys", { headers: auth(reseller.token), data: { name: "my bot", mode: "live" } });
  expect(created.status()).toBe(201);
  const bot = { authorization: `Bearer ${(await created.json()).secret}` };
  const post = (url: string, data: unknown, extra: Record<string, string> = {}) => request.post(url, { headers: { ...bot, "idempotency-key": crypto.randomUUID(), ...extra }, data });
  const ada = await (await post("/api/v1/subaccounts", { name: "Ada", external_id: "tg-1001" })).json();
  const bola = await (await post("/api/v1/subaccounts", { name: "Bola", external_id: "tg-1002" })).json();
  expect(ada.id).toMatch(/^sub_/);
  expect((await (await request.get("/api/v1/markups", { headers: bot })).json()).percent).toBe(20);
  expect((await post(`/api/v1/subaccounts/${ada.id}/transfer-in`, { amount: 3000 })).status()).toBe(201);

  // Prices for Ada carry the markup; the purchase is paid from Ada's wallet at that price.
  const prices = async (extra: Record<string, string> = {}) =>
    ((await (await request.get("/api/v1/prices?provider=Swift&country=5", { headers: { ...bot, ...extra } })).json()).data as { service: string; price: number }[]).find((p) => p.service === "wa")!.price;
  const ours = await prices();
  const marked = await prices({ "x-subaccount": ada.id });
  const marginKobo = Math.floor((Math.round(ours * 100) * 2000) / 10_000);
  expect(Math.round(marked * 100)).toBe(Math.round(ours * 100) + marginKobo);
  const bought = await post("/api/v1/sms/orders", { provider: "Swift", country: "5", service: "wa", max_price: marked }, { "x-subaccount": ada.id });
  expect(bought.status()).toBe(201);
  const order = await bought.json();
  expect(order).toMatchObject({ price: marked, subaccount_id: ada.id });

  // The code comes (the sandbox sends it within seconds): the order is kept and the margin credited.
  await expect
    .poll(async () => (await (await request.get(`/api/v1/sms/orders/${order.id}`, { headers: { ...bot, "x-subaccount": ada.id } })).json()).status, { timeout: 60_000 })
    .toBe("used");
  await page.reload();
  const margin = `₦${(marginKobo / 100).toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  await expect(page.getByTestId("margin-earned")).toHaveText(margin);
  await expect(page.getByTestId("markup")).toHaveText("20%");
  const table = page.getByTestId("subaccounts-table");
  await expect(table.getByRole("row", { name: /Ada/ })).toContainText("active");
  await expect(table.getByRole("row", { name: /Bola/ })).toContainText("₦0.00");

  // An operator refunds the kept order from the console: Ada gets the price back, the margin is reversed.
  const operator = await operatorWithTwoFactor(request);
  const consoleContext = await browser.newContext();
  const consolePage = await consoleContext.newPage();
  await signInBrowser(consolePage, operator);
  await consolePage.goto("/#/admin/orders");
  // The customer filter takes an account's id: the sub-account's one order.
  await consolePage.getByLabel("Customer (name, e-mail or phone)").fill(ada.id);
  const refund = consolePage.getByRole("table", { name: "SMS orders" }).getByRole("button", { name: "Refund" });
  await expect(refund).toHaveCount(1);
  await refund.click();
  const form = consolePage.getByRole("form", { name: "Refund now" });
  await form.getByLabel("Reason (recorded in the audit log)").fill("the code did not work for the customer");
  await form.getByRole("button", { name: "Refund now" }).click();
  // The answer says what moved in words (the price back, the margin taken back).
  await expect(form.getByRole("status")).toHaveText(/^Refunded ₦[\d,]+\.\d\d to the wallet that paid\. The reseller's margin \(₦[\d,]+\.\d\d\) was taken back\.$/);
  // The console's resellers page: two sub-accounts, both open, Ada's ₦3,000 held for the reseller's customers, the margin reversed.
  await consolePage.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Resellers" }).click();
  const resellerRow = consolePage.getByRole("table", { name: "Resellers" }).getByRole("row", { name: new RegExp(reseller.user.userEmail) });
  await expect(resellerRow).toContainText("2 (2)");
  await expect(resellerRow).toContainText("₦3,000.00");
  await expect(resellerRow).toContainText("20%");
  // Its sub-accounts one click away (the count is the link): Ada holding ₦3,000, Bola open and empty.
  await resellerRow.getByRole("link", { name: "2 (2)" }).click();
  const subaccounts = consolePage.getByRole("table", { name: "Sub-accounts" });
  await expect(subaccounts.getByRole("row", { name: new RegExp(ada.id) })).toContainText("₦3,000.00");
  await expect(subaccounts.getByRole("row", { name: new RegExp(bola.id) })).toContainText("active");
  await consoleContext.close();

  const adaAfter = await (await request.get(`/api/v1/subaccounts/${ada.id}`, { headers: bot })).json();
  expect(adaAfter.balance).toBe(3000);
  expect((await (await request.get(`/api/v1/sms/orders/${order.id}`, { headers: { ...bot, "x-subaccount": ada.id } })).json()).refunded).toBe(true);
  await page.reload();
  await expect(page.getByTestId("margin-earned")).toHaveText("₦0.00");

  // Close the other: its (empty) wallet closed for good, shown so on the partner page.
  const closed = await post(`/api/v1/subaccounts/${bola.id}/close`, {});
  expect((await closed.json()).status).toBe("closed");
  expect((await post(`/api/v1/subaccounts/${bola.id}/transfer-in`, { amount: 100 })).status()).toBe(409);
  await page.reload();
  await expect(page.getByTestId("subaccounts-table").getByRole("row", { name: /Bola/ })).toContainText("closed");
});
