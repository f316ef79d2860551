import type { APIRequestContext } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { axeDialogEverywhere } from "./axe";
import { expect, test, openSignedIn, signInBrowser, signUpViaApi } from "./support";

// Issue 12, "Protection a wallet owes its customers", through the real product: the e-mail confirmation notice and
// link, two-factor enrolment then a two-step login, and the signed-in devices list with "sign out" per device.

const PASSWORD = "secret123";

async function latestMail(request: APIRequestContext, email: string, subject: string) {
  const res = await request.get(`/sandbox/outbox.json?to=${encodeURIComponent(email)}`);
  const { data } = (await res.json()) as { data: { subject: string; link: string | null }[] };
  return data.find((m) => m.subject === subject);
}

test("the confirm-your-e-mail notice shows until the e-mailed link is followed", async ({ page, request }) => {
  const session = await signUpViaApi(request, "verify");
  await openSignedIn(page, session, "#/dashboard/1");
  await expect(page.getByTestId("verify-email-notice")).toBeVisible();

  const mail = await latestMail(request, session.user.userEmail, "Confirm your e-mail address");
  expect(mail?.link).toContain("#/verify-email?token=");
  await page.goto(`/${new URL(mail!.link!).hash}`);
  await expect(page.getByText("Your e-mail address is confirmed.")).toBeVisible();
  await page.getByRole("link", { name: "Go to your dashboard" }).click();
  await expect(page).toHaveURL(/#\/dashboard\/1/);
  await expect(page.getByTestId("balance-amount")).toBeVisible();
  await expect(page.getByTestId("verify-email-notice")).toHaveCount(0);
});

test("two-factor: enrol with the app's code, save recovery codes, then log in with password + code", async ({ page, request }) => {
  const session = await signUpViaApi(request, "totp");
  await openSignedIn(page, session, "#/settings/1");

  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  await page.getByLabel("Code from your app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByText(/10 unused recovery codes left/)).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/#\/homepage\/1/);

  await page.goto("/#/login/1");
  await page.getByLabel("Email").fill(session.user.userEmail);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await page.getByLabel("Authentication code").fill("000000" === totp.generate() ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not correct" })).toBeVisible();
  // The enrolment spent this time step's code: the next step's code is accepted (one step of clock drift allowed).
  await page.getByLabel("Authentication code").fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/#\/dashboard\/1/);
  await expect(page.getByTestId("balance-amount")).toBeVisible();
});

test("signed-in devices: this device and another are listed; signing the other out ends its session at once", async ({ page, request, browser }) => {
  const session = await signUpViaApi(request, "devices");
  const other = await request.post("/api/login", {
    data: { email: session.user.userEmail, password: PASSWORD },
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" },
  });
  const otherToken = ((await other.json()) as { token: string }).token;
  // The other device: a second browser on the dashboard with its realtime socket.
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await signInBrowser(otherPage, { token: otherToken, user: session.user }, { dashboardTourCompleted: "true" });
  const otherSocket = otherPage.waitForEvent("websocket");
  await otherPage.goto("/#/dashboard/1");
  await expect(otherPage.getByTestId("balance-amount")).toBeVisible();
  const socketClosed = new Promise<void>((resolve) => void otherSocket.then((ws) => ws.on("close", () => resolve())));

  await openSignedIn(page, session, "#/settings/1");
  const devices = page.getByTestId("signed-in-device");
  await expect(devices).toHaveCount(2);
  await expect(devices.filter({ hasText: "This device" })).toHaveCount(1);
  const firefox = devices.filter({ hasText: "Firefox on Linux" });
  await expect(firefox).toBeVisible();

  await firefox.getByRole("button", { name: /Sign out/ }).click();
  await expect(devices).toHaveCount(1);
  const after = await request.get("/api/user-balance", { headers: { authorization: `Bearer ${otherToken}` } });
  expect(after.status()).toBe(401);
  // Its socket was closed by the server, and that browser finds itself signed out without doing anything.
  await socketClosed;
  await expect(otherPage).toHaveURL(/#\/login/);
  await otherContext.close();
  // This device stays signed in.
  await page.reload();
  await expect(devices.filter({ hasText: "This device" })).toHaveCount(1);

  // "Sign out everywhere" asks first (axe on its confirmation, both themes and widths), then signs this device out too.
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const confirm = page.getByRole("dialog", { name: "Sign out everywhere?" });
  await expect(confirm).toBeVisible();
  const confirmProblems = await axeDialogEverywhere(page, "Sign out everywhere dialog");
  expect(confirmProblems, confirmProblems.join("\n")).toEqual([]);
  await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/#\/login/);
  expect((await request.get("/api/user-balance", { headers: { authorization: `Bearer ${session.token}` } })).status()).toBe(401);
});
