import { axeProblems } from "./axe";
import { expect, openSignedIn, signUpAndFund, test } from "./support";

// Issue 43, major 5, seen at 360 px and 1280 px: History, the CSV, Devices and the status page each told a time on
// their own clock (stored UTC text, "14:07 PM", Lagos, "UTC"). Now every one is Lagos time on the 12-hour clock,
// labelled WAT, in one format (schema/datetime.ts). The expected texts are worked out here from the server's UTC
// instants with Lagos's fixed offset (UTC+1 all year), not with the app's formatter.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LAGOS_OFFSET_MS = 3_600_000;
/** "Nov 29, 3:08 AM WAT" (with the year when it is not this Lagos year, or always). */
function lagosText(iso: string, withYear = false): string {
  const at = new Date(Date.parse(iso) + LAGOS_OFFSET_MS);
  const thisYear = new Date(Date.now() + LAGOS_OFFSET_MS).getUTCFullYear();
  const hours = at.getUTCHours();
  const year = withYear || at.getUTCFullYear() !== thisYear ? `${at.getUTCFullYear()}, ` : "";
  return `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}, ${year}${hours % 12 === 0 ? 12 : hours % 12}:${String(at.getUTCMinutes()).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"} WAT`;
}
const ONE_FORMAT = /^[A-Z][a-z]{2} \d{1,2}, (\d{4}, )?(1[0-2]|[1-9]):[0-5]\d [AP]M WAT$/;
/** What the old screens wrote: a 24-hour hour before AM/PM, or a UTC label. */
const OTHER_CLOCKS = /\b(1[3-9]|2[0-3]|00):\d\d [AP]M\b|\bUTC\b|GMT/;

for (const width of [360, 1280]) {
  test(`${width} px: History, the CSV, Devices and the status page tell one time, in Lagos`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const session = await signUpAndFund(request, "clock", 5000, "Olumide");
    const auth = { authorization: `Bearer ${session.token}` };
    const [deposit] = (await (await request.get("/api/get-transaction", { headers: auth })).json()) as { id: string; created_at: string }[];

    // History (the dashboard): the deposit's time, in Lagos, in the one format.
    await openSignedIn(page, session, "#/dashboard/1");
    const row = page.getByRole("list", { name: "Transactions" }).getByRole("listitem").first();
    const shown = row.locator("time");
    await expect(shown).toHaveText(lagosText(deposit!.created_at));
    await expect(shown).toHaveAttribute("datetime", deposit!.created_at);
    await expect(row).not.toContainText(OTHER_CLOCKS);
    expect(await axeProblems(page, `history times ${width}`)).toEqual([]);

    // The CSV: the same instant in the same format, with its year, and the header says which clock.
    const today = new Date(Date.now() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
    const csv = await (await request.get(`/api/export/transactions.csv?from=${today}&to=${today}`, { headers: auth })).text();
    const [header, line] = csv.trimEnd().split("\r\n");
    expect(header).toBe('"Date (WAT)","Reference","Description","Amount (NGN)","Status","Not moved (NGN)"');
    expect(line).toBe(`"${lagosText(deposit!.created_at, true)}","${deposit!.id}","Wallet deposit (card)","5000.00","successful",""`);

    // Settings → Signed-in devices: the same clock and format.
    await page.goto("/#/settings/1");
    const device = page.getByTestId("signed-in-device").first();
    await expect(device).toContainText("Last seen");
    const times = /Last seen (.+) · Signed in (.+)$/.exec((await device.locator("p").nth(1).textContent()) ?? "");
    expect(times?.[1]).toMatch(ONE_FORMAT);
    expect(times?.[2]).toMatch(ONE_FORMAT);

    // The public status page says when its figures were made, on the same clock.
    await page.goto("/#/status");
    const updated = page.getByText(/Updated .+\.$/);
    await expect(updated).toBeVisible({ timeout: 15_000 });
    const when = /Updated (.+)\.$/.exec((await updated.textContent()) ?? "")?.[1] ?? "";
    expect(when).toMatch(ONE_FORMAT);
    await expect(page.locator("main")).not.toContainText(OTHER_CLOCKS);
  });
}
