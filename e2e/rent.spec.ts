import { axeDialogEverywhere, axeProblems } from "./axe";
import { expect, test, balanceOf, openSignedIn, pick, signUpAndFund } from "./support";

// Rent Number journey against the real product in sandbox mode: the sandbox rent simulator delivers the first SMS
// SANDBOX_SMS_DELAY_MS (2.5 s in the journeys) after the number is rented.

test("rent a number for 1 hour, see an SMS arrive in its inbox without a reload, end the rental after confirming", async ({ page, request }) => {
  const session = await signUpAndFund(request, "rent", 20_000, "Babatunde");
  await openSignedIn(page, session, "#/number/1");
  await expect(page.getByRole("heading", { name: "Rent Number" })).toBeVisible();

  await pick(page, "Country", "USA", "USA");
  // The period selector appears only once a unit is chosen.
  await expect(page.getByRole("combobox", { name: "Period" })).toHaveCount(0);
  await pick(page, "Duration", "Hour");
  await pick(page, "Period", "1 hour", undefined);

  // The delayed lookup fills Stock and Price from the server, and the Cost / Wallet summary appears.
  await expect(page.getByLabel("Price")).toHaveValue(/^₦\d/, { timeout: 15_000 });
  const summary = page.getByTestId("rent-summary");
  await expect(summary).toContainText("Cost");
  await expect(summary).toContainText("₦20,000.00");
  // Issue 32: auto-renew is offered only where the rent upstream documents extension; sms-man (the sandbox follows its
  // documents) has none, so once the server has answered the inbox's extension choices there is no switch at all.
  const extendOptions = page.waitForResponse((res) => /\/api\/rentals\/[^/]+\/extend-options$/.test(res.url()));
  await page.getByRole("button", { name: "Get Number" }).click();
  expect(await (await extendOptions).json()).toEqual({ extendable: false, options: [] });
  await expect(page.getByTestId("rental-inbox").getByRole("switch", { name: "Renew automatically" })).toHaveCount(0);

  // The inbox opens on the new rental; the first SMS is pushed (or polled) in without a reload.
  const inbox = page.getByTestId("rental-inbox");
  await expect(inbox).toBeVisible();
  await expect(inbox.getByTestId("rental-time-left")).toContainText(/Time left: (59|60)m|Time left: 1h/);
  await expect(inbox.getByTestId("rental-messages").getByRole("listitem").first()).toBeVisible({ timeout: 45_000 });
  await expect(inbox.getByTestId("rental-messages")).toContainText(/code is \d+/);
  expect(await balanceOf(request, session.token)).toBeLessThan(20_000);

  // End rental asks first and says, from the server's figures, that nothing comes back; "Keep rental" changes nothing.
  const balanceBeforeEnd = await balanceOf(request, session.token);
  await page.getByRole("dialog").getByRole("button", { name: "End rental" }).click();
  const confirmation = inbox.getByRole("alertdialog", { name: "End this rental now?" });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText(/still has (59|60)m|still has 1h/);
  await expect(confirmation).toContainText("No money comes back");
  // Issue 18: axe on the rental inbox with its End rental confirmation open, both themes and widths.
  const dialogProblems = await axeDialogEverywhere(page, "End rental confirmation");
  expect(dialogProblems, dialogProblems.join("\n")).toEqual([]);
  await page.getByRole("dialog").getByRole("button", { name: "Keep rental" }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(inbox.getByTestId("rental-time-left")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "End rental" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes, end rental" }).click();
  await expect(page.getByText("Rental ended")).toBeVisible();
  expect(await balanceOf(request, session.token)).toBe(balanceBeforeEnd);
  // The status reads as a word; the badge style still follows the raw status "ended".
  await expect(inbox.getByText("Ended", { exact: true })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();

  // The rental is in the table with its Action to reopen the inbox.
  const row = page.getByTestId("orders-table").getByRole("row").filter({ hasText: "ended" });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row.getByRole("button", { name: /Open the inbox/ })).toBeVisible();
});

test("a sold-out choice shows the spec's red box, then clears the fields", async ({ page, request }) => {
  const session = await signUpAndFund(request, "rent", 5_000, "Babatunde");
  await openSignedIn(page, session, "#/number/1");
  await pick(page, "Country", "Sold-out land (sandbox)", "Sold-out");
  await pick(page, "Duration", "Day");
  await pick(page, "Period", "1 day");

  const box = page.getByRole("alert").filter({ hasText: "No stock available for the selected duration" });
  await expect(box).toBeVisible({ timeout: 15_000 });
  // About 3 s later the selections reset; about 4 s after it appeared the message goes.
  await expect(page.getByRole("combobox", { name: "Country" })).toHaveText("Select a country", { timeout: 10_000 });
  await expect(page.getByRole("combobox", { name: "Period" })).toHaveCount(0);
  await expect(box).toHaveCount(0, { timeout: 10_000 });
  expect(await balanceOf(request, session.token)).toBe(5_000);
});

// Issue 43, major 4, seen at 360 px and 1280 px: Nigeria's 24 hours cost three times its one day, and nothing said so.
for (const width of [360, 1280]) {
  test(`${width} px: a longer unit that costs less for the same time is said and offered`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const session = await signUpAndFund(request, "rent-cheaper", 20_000, "Adaeze");
    await openSignedIn(page, session, "#/number/1");
    await pick(page, "Country", "Nigeria", "Nigeria");
    await pick(page, "Duration", "Hour");
    await pick(page, "Period", "24 hours", undefined);
    await expect(page.getByLabel("Price")).toHaveValue(/^₦\d/, { timeout: 15_000 });
    const hours = Number((await page.getByLabel("Price").inputValue()).replace(/[₦,]/g, ""));

    // The server's quote for 1 day, the covering choice it names: cheaper, and said with both figures.
    const offer = page.getByTestId("rent-cheaper");
    await expect(offer).toContainText(/^1 day is ₦[\d,]+\.\d\d, less than 24 hours at ₦[\d,]+\.\d\d, and lasts at least as long\./);
    const day = Number(/1 day is ₦([\d,]+\.\d\d)/.exec((await offer.textContent()) ?? "")![1].replace(/,/g, ""));
    expect(day).toBeLessThan(hours);
    expect(await axeProblems(page, `rent cheaper offer ${width}`)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "no sideways scroll").toBeLessThanOrEqual(0);

    // Taking the offer switches the choice; the new quote is the day's price and nothing cheaper is left to offer.
    await offer.getByRole("button", { name: "Rent 1 day instead" }).click();
    await expect(page.getByRole("combobox", { name: "Duration" })).toHaveText("Day");
    await expect(page.getByRole("combobox", { name: "Period" })).toHaveText("1 day");
    await expect(page.getByLabel("Price")).toHaveValue(`₦${day.toLocaleString("en-NG", { minimumFractionDigits: 2 })}`, { timeout: 15_000 });
    await expect(offer).toHaveCount(0);
    await page.getByRole("button", { name: "Get Number" }).click();
    await expect(page.getByTestId("rental-inbox")).toBeVisible();
    await expect.poll(() => balanceOf(request, session.token)).toBe(Math.round((20_000 - day) * 100) / 100);
  });
}
