import type { Page } from "@playwright/test";
import { axeProblems } from "./axe";
import { balanceOf, expect, openSignedIn, pick, signUpAndFund, test } from "./support";

// Issue 49, "rentals that can be extended": the rent form says before purchase whether the number can be extended and
// offers an extendable one (HeroSMS, the SMS-Activate rent protocol's continueRentNumber) at its own price; that rental
// is then extended from its inbox and the rentals list says when it last received a message. Against the sandbox's
// sms-man and HeroSMS rent simulators, at 360 px and 1280 px.

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

const nairaOf = (text: string | null) => Number((/₦([\d,.]+)/.exec(text ?? "")?.[1] ?? "NaN").replace(/,/g, ""));

for (const width of [360, 1280]) {
  test(`${width} px: said before purchase, rented extendable at its own price, then extended from the inbox`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const session = await signUpAndFund(request, "rent-extend", 20_000, "Chiamaka");
    await openSignedIn(page, session, "#/number/1");
    await pick(page, "Country", "USA", "USA");
    await pick(page, "Duration", "Day");
    await pick(page, "Period", "1 day");
    await expect(page.getByLabel("Price")).toHaveValue(/^₦\d/, { timeout: 15_000 });

    // sms-man's number first: said not extendable, with the extendable one's price beside it.
    const said = page.getByTestId("rent-extendable");
    await expect(said).toContainText("This number cannot be extended");
    const offer = page.getByTestId("rent-extendable-offer");
    await expect(offer).toHaveText(/^Rent one I can extend: ₦[\d,.]+$/);
    const extendablePrice = nairaOf(await offer.textContent());
    expect(await axeProblems(page, `rent extendable offer ${width}`)).toEqual([]);
    await offer.click();
    await expect(said).toContainText("This number can be extended before it ends, and renewed automatically.");
    await expect.poll(async () => nairaOf(await page.getByLabel("Price").inputValue())).toBe(extendablePrice);
    await noSidewaysScroll(page);

    await page.getByRole("button", { name: "Get Number" }).click();
    await expect(page.getByText(/rented successfully/)).toBeVisible();
    await expect.poll(() => balanceOf(request, session.token)).toBe(Math.round((20_000 - extendablePrice) * 100) / 100);

    // Its inbox offers Extend (HeroSMS's prices) and auto-renew; one extension is charged once.
    const inbox = page.getByTestId("rental-inbox");
    const extend = inbox.getByTestId("extend-rental");
    await expect(extend).toBeVisible({ timeout: 15_000 });
    await expect(inbox.getByRole("switch", { name: "Renew automatically" })).toBeVisible();
    const fourHours = extend.getByRole("button", { name: /^Extend 4 hours — ₦/ });
    const extensionPrice = nairaOf(await fourHours.textContent());
    await fourHours.click();
    await expect(page.getByText(/^Rental extended by 4 hours for ₦/)).toBeVisible();
    await expect
      .poll(() => balanceOf(request, session.token))
      .toBe(Math.round((20_000 - extendablePrice - extensionPrice) * 100) / 100);
    expect(await axeProblems(page, `rental inbox with Extend ${width}`)).toEqual([]);
    await noSidewaysScroll(page);

    // The first SMS arrives (the simulator's delay), and the rentals list says when the number last received one.
    await expect(inbox.getByTestId("rental-messages").getByRole("listitem").first()).toBeVisible({ timeout: 45_000 });
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();
    await page.reload();
    await expect(page.getByTestId("orders-table").getByTestId("rental-last-message").first()).toHaveText(/^Last SMS /, { timeout: 15_000 });
  });
}
