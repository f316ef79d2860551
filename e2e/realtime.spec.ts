import type { APIRequestContext, Page } from "@playwright/test";
import { expect, gotoSettled, test } from "./support";

// Issue 6: two tabs of one signed-in customer; a card payment completed through the sandbox reaches both screens
// through the realtime room, with no reload.

type Session = { token: string; user: { userId: string; username: string; userNumber: string; userEmail: string } };

async function register(request: APIRequestContext): Promise<Session> {
  const email = `realtime-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const res = await request.post("/api/register/", {
    data: { username: "Emeka", number: "08031234567", email, password: "secret123" },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Session;
}

/** The dashboard with its balance unmasked (the eye toggle persists the choice, so a later tab may already show it). */
async function openDashboard(page: Page) {
  await gotoSettled(page, "/#/dashboard/1");
  const amount = page.getByTestId("balance-amount");
  await expect(amount).toBeVisible();
  if (!/\d/.test((await amount.textContent()) ?? "")) await page.getByTestId("balance-toggle").click();
  await expect(amount).toHaveText(/₦\s?0\.00/);
  // The socket is up: from here on a push, not a poll, is what the screen is waiting for.
  await expect(page.locator("html")).toHaveAttribute("data-realtime", "connected");
}

test("a payment completed in one tab updates the balance in the other without a reload", async ({ context, request }) => {
  const session = await register(request);
  await context.addInitScript((s) => {
    localStorage.setItem("authToken", s.token);
    localStorage.setItem("userData", JSON.stringify(s.user));
    localStorage.setItem("auth", JSON.stringify(s));
    localStorage.setItem("dashboardTourCompleted", "true");
  }, session);

  const payingTab = await context.newPage();
  const otherTab = await context.newPage();
  const framesToOtherTab: string[] = [];
  otherTab.on("websocket", (ws) => {
    if (!ws.url().includes("/parties/notification-room/")) return;
    ws.on("framereceived", (frame) => framesToOtherTab.push(String(frame.payload)));
  });
  await openDashboard(payingTab);
  await openDashboard(otherTab);

  // Proof of "no reload": a value set on the page's window survives only if the page is never reloaded.
  await otherTab.evaluate(() => ((window as unknown as { realtimeMarker: string }).realtimeMarker = "still-here"));
  let otherTabLoads = 0;
  otherTab.on("load", () => (otherTabLoads += 1));

  const headers = { authorization: `Bearer ${session.token}` };
  const init = await payingTab.request.post("/api/initialize-transaction", { headers, data: { amount: 2500, currency: "NGN" } });
  expect(init.ok()).toBe(true);
  const ref = (await init.json()).data.data.transaction_ref as string;
  const done = await payingTab.request.post(`/sandbox/squad/${encodeURIComponent(ref)}/complete`, { data: { outcome: "success" } });
  expect(done.ok()).toBe(true);

  await expect(otherTab.getByTestId("balance-amount")).toHaveText(/₦\s?2,500\.00/);
  await expect(payingTab.getByTestId("balance-amount")).toHaveText(/₦\s?2,500\.00/);
  // The news came by the room (the dashboard's own payment check runs only in a tab back from checkout).
  expect(framesToOtherTab.some((f) => f.includes('"payment.credited"') && f.includes(ref))).toBe(true);
  await expect(otherTab.getByText("Payment confirmed successfully!")).toBeVisible();
  expect(await otherTab.evaluate(() => (window as unknown as { realtimeMarker?: string }).realtimeMarker)).toBe("still-here");
  expect(otherTabLoads).toBe(0);
});
