import type { Page } from "@playwright/test";
import { axeProblems } from "./axe";
import { balanceOf, expect, openSignedIn, pick, signUpAndFund, test } from "./support";

// Issue 49, "choose the number that works": a USA T-Mobile number in area code 212 with the surcharge said first (360
// px), the offer's own record beside the price and the fields absent where no upstream documents a choice (1280 px), and
// a choice nothing can fill refunded at once, against the sandbox's DaisySMS and HeroSMS simulators.

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

test("360 px: a USA T-Mobile number in area code 212, the surcharge said before the click, charged once", async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const session = await signUpAndFund(request, "choose", 5000, "Ngozi");
  await openSignedIn(page, session, "#/sms/1");
  await pick(page, "Service", /^WhatsApp/, "WhatsApp");
  // The offer's record beside the price: the figures from 30 orders, the sample always.
  await expect(page.getByTestId("sms-offer-record")).toHaveText(/(got a code in the last 7 days|its record shows from 30)/);

  await pick(page, "Carrier (optional)", "T-Mobile");
  await page.getByTestId("sms-area-codes").fill("212");
  const surcharge = page.getByTestId("sms-choice-surcharge");
  await expect(surcharge).toHaveText(/^Your choice costs 40% more \(the provider's own charge\): ₦[\d,.]+ instead of ₦[\d,.]+\.$/);
  const price = Number((/: ₦([\d,.]+) instead/.exec((await surcharge.textContent()) ?? "")?.[1] ?? "0").replace(/,/g, ""));
  expect(price).toBeGreaterThan(0);
  await noSidewaysScroll(page);
  expect(await axeProblems(page, "choice fields 360")).toEqual([]);

  const before = await balanceOf(request, session.token);
  await page.getByRole("button", { name: "Get Number" }).click();
  await expect(page.getByText("number purchased successfully")).toBeVisible();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: /Waiting for SMS|SMS Received/ })).toBeVisible();
  await expect(dialog).toContainText("+1 212");
  await expect.poll(() => balanceOf(request, session.token)).toBe(Math.round((before - price) * 100) / 100);
});

test("1280 px: the record beside the price; carrier and area code only where documented; a choice nothing fills is refunded at once", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const session = await signUpAndFund(request, "choose-wide", 5000, "Tunde");
  await openSignedIn(page, session, "#/sms/1");
  await pick(page, "Service", /^Telegram/, "Telegram");
  await expect(page.getByTestId("sms-offer-record")).toBeVisible();
  await expect(page.getByText("Carrier (optional)")).toBeVisible();
  await expect(page.getByText("Area code (optional)")).toBeVisible();

  // Dynamic SMS in Nigeria: no upstream of its route documents a carrier, area code or operator there: no fields at all.
  await pick(page, "Provider", "Dynamic SMS");
  await pick(page, "Country", "Nigeria", "Nigeria");
  await pick(page, "Service", /^Telegram/, "Telegram");
  await expect(page.getByTestId("sms-offer-record")).toBeVisible();
  await expect(page.getByText("Carrier (optional)")).toHaveCount(0);
  await expect(page.getByText("Area code (optional)")).toHaveCount(0);
  await expect(page.getByText("Operator (optional)")).toHaveCount(0);

  // Back on Swift SMS: an area code DaisySMS holds no number in is its NO_NUMBERS, and the money comes back at once.
  await pick(page, "Provider", "Swift SMS");
  await pick(page, "Service", /^Telegram/, "Telegram");
  await page.getByTestId("sms-area-codes").fill("999");
  await expect(page.getByTestId("sms-choice-surcharge")).toBeVisible();
  const before = await balanceOf(request, session.token);
  await page.getByRole("button", { name: "Get Number" }).click();
  await expect(page.getByText("No numbers available for this service right now.", { exact: false })).toBeVisible();
  await expect.poll(() => balanceOf(request, session.token)).toBe(before);
  await noSidewaysScroll(page);
  expect(await axeProblems(page, "choice fields 1280")).toEqual([]);
});
