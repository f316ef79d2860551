import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support";

// Dashboard journeys: the guided tour's first-visit rule, the ads carousel and the referral link copy.
// Time is driven with Playwright's clock so "not shown after 1 s" is a fact, not a race.

type Session = { token: string; user: { userId: string; username: string; userNumber: string; userEmail: string } };

async function signUp(request: APIRequestContext): Promise<Session> {
  const email = `dash-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const reg = await request.post("/api/register/", {
    data: { username: "Tunde", number: "08031234567", email, password: "secret123" },
  });
  expect(reg.status()).toBe(201);
  return (await reg.json()) as Session;
}

/** The session only: the tour flags are left as a new customer's browser has them (absent). */
async function signIn(page: Page, session: Session, flags: Record<string, string> = {}) {
  await page.addInitScript(
    ({ s, flags }) => {
      localStorage.setItem("authToken", s.token);
      localStorage.setItem("userData", JSON.stringify(s.user));
      localStorage.setItem("auth", JSON.stringify(s));
      for (const [k, v] of Object.entries(flags)) localStorage.setItem(k, v);
    },
    { s: session, flags },
  );
}

async function dashboardReady(page: Page) {
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await expect(page.getByText("Loading your dashboard...")).toHaveCount(0);
}

test("the tour opens on a first visit and not on the second", async ({ page, request }) => {
  await page.clock.install();
  await signIn(page, await signUp(request));
  await page.goto("/#/dashboard/1");
  await dashboardReady(page);

  await page.clock.fastForward(1100);
  const card = page.getByRole("dialog", { name: "Wallet balance" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Step 1 of 5");
  await expect(card).toBeFocused();
  // Issue 18: the tour holds focus: Tab and Shift+Tab cycle among its own controls, never the page behind.
  for (const key of ["Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await page.getByTestId("tour-card").evaluate((el) => el.contains(document.activeElement)), `focus left the tour after ${key}`).toBe(true);
  }

  // Keyboard: Next and Previous move through the steps; Escape dismisses with the spec's info toast.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("dialog", { name: "Purchase numbers" })).toBeVisible();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page.getByRole("dialog", { name: "Wallet balance" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByText("You can restart the tour anytime from the help button.")).toBeVisible();
  await expect(page.getByTestId("tour-card")).toHaveCount(0);
  // Focus does not drop to the page body: the tour opened by itself, so it lands on Take Tour, which starts it again.
  await expect(page.getByRole("button", { name: "Take Tour" })).toBeFocused();

  // Second visit: the first-visit flag is set, so it stays closed.
  await page.reload();
  await dashboardReady(page);
  await page.clock.fastForward(5000);
  await expect(page.getByTestId("tour-card")).toHaveCount(0);

  // Take Tour starts it again; all five steps, then Finish records completion.
  await page.getByRole("button", { name: "Take Tour" }).click();
  for (const title of ["Wallet balance", "Purchase numbers", "Rent numbers", "Referral programme"]) {
    await expect(page.getByRole("dialog", { name: title })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
  }
  await expect(page.getByRole("dialog", { name: "Transaction history" })).toBeVisible();
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByText("Tour completed! You can restart it anytime from the help button.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Take Tour" })).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem("dashboardTourCompleted"))).toBe("true");
});

test("the ads carousel advances every 3 s and loops", async ({ page, request }) => {
  await page.clock.install();
  await signIn(page, await signUp(request), { dashboardTourCompleted: "true" });
  await page.goto("/#/dashboard/1");
  await dashboardReady(page);

  const track = page.getByTestId("ads-track");
  await expect(track.getByRole("group")).toHaveCount(3);
  await expect(track).toHaveAttribute("data-active-index", "0");
  for (const next of ["1", "2", "0"]) {
    await page.clock.fastForward(3000);
    await expect(track).toHaveAttribute("data-active-index", next);
  }
  await expect(page.getByRole("button", { name: "Show offer 1" })).toHaveAttribute("aria-current", "true");
  // The seeded ads' images exist (served from web/public/ads): every one decoded, none fell back.
  const images = track.locator("img");
  await expect(images).toHaveCount(3);
  for (const img of await images.all()) {
    const res = await request.get((await img.getAttribute("src"))!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("image/svg+xml");
  }
});

test("the Referral Link tile copies the customer's link", async ({ page, request, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const session = await signUp(request);
  await signIn(page, session, { dashboardTourCompleted: "true" });
  await page.goto("/#/dashboard/1");
  await dashboardReady(page);

  // The body is the link itself (SPEC 7 "Referral link as data").
  const link = (await (await request.get("/api/ref", { headers: { authorization: `Bearer ${session.token}` } })).json()) as string;
  await page.getByRole("button", { name: /Referral Link/ }).click();
  await expect(page.getByText("Link copied to your clipboard!")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(link);
  expect(copied).toMatch(/\/#\/signup\/1\?ref=[A-Za-z0-9]+$/);
});
