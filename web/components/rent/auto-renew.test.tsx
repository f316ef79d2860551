import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RentalView } from "../../../schema/rentals";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { AutoRenewRental, unfundedWarning } from "./auto-renew";

vi.mock("../../lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));
vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "token-1", getUser: () => ({ userId: "u1" }) }));

const rental = (over: Partial<RentalView> = {}): RentalView => ({
  id: "r1",
  number: "447911123456",
  status: "active",
  country: "United Kingdom",
  country_id: "16",
  unit: "day",
  period: 1,
  duration: "1 day",
  provider: "Dynamic",
  amount: 5000,
  created_at: "2026-11-26T10:00:00.000Z",
  expires_at: "2026-11-27T10:00:00.000Z",
  sms_count: 0,
  can_cancel: false,
  cancel_until: null,
  refund_if_ended: null,
  refund_if_cancelled: null,
  auto_renew: null,
  ...over,
});
const OPTIONS = [
  { unit: "hour", period: 4, duration: "4 hours", price: 896 },
  { unit: "day", period: 1, duration: "1 day", price: 5376 },
];

const bodies: unknown[] = [];
const script: FetchScript = { answers: {}, calls: [], bodies };
beforeEach(() => installScriptedFetch(script));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(r: RentalView, { options = OPTIONS, balance = 10_000 }: { options?: unknown[]; balance?: number } = {}) {
  script.answers["GET /api/rentals/r1/extend-options"] = [json(200, { extendable: options.length > 0, options })];
  script.answers["GET /api/user-balance"] = [json(200, { balance })];
  renderWithQuery(<AutoRenewRental rental={r} />);
}

describe("Renew automatically (the rental inbox)", () => {
  it("is absent where the upstream documents no extension (sms-man today)", async () => {
    show(rental(), { options: [] });
    await waitFor(() => expect(script.calls).toContain("GET /api/rentals/r1/extend-options"));
    expect(screen.queryByTestId("auto-renew")).toBeNull();
    expect(screen.queryByRole("switch")).toBeNull();
  });

  it("says the price that will be charged, sends it, and a higher server price asks first", async () => {
    show(rental());
    const toggle = await screen.findByRole("switch", { name: "Renew automatically" });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId("auto-renew-price").textContent).toBe("Each renewal charges ₦896.00 for 4 hours more, 15 minutes before the rental ends.");
    fireEvent.change(screen.getByLabelText("Renew by"), { target: { value: "day-1" } });
    expect(screen.getByTestId("auto-renew-price").textContent).toContain("₦5,376.00 for 1 day more");

    // The server's price went up: nothing is turned on, the new price is asked about.
    script.answers["POST /api/rentals/r1/auto-renew"] = [
      json(409, { code: "PRICE_CHANGED", message: "Each renewal costs ₦5,600.00 now.", price: 5600 }),
      json(200, { rental: rental({ auto_renew: { duration: "1 day", unit: "day", period: 1, price: 5600, renews_at: "2026-11-27T09:45:00.000Z", paused: null } }) }),
    ];
    fireEvent.click(toggle);
    expect((await screen.findByTestId("auto-renew-price-changed")).textContent).toContain("Each renewal now costs ₦5,600.00 for 1 day");
    expect(bodies).toEqual([{ enabled: true, duration: "day", period: 1, price: 5376 }]);
    fireEvent.click(screen.getByRole("button", { name: "Renew for ₦5,600.00" }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ enabled: true, duration: "day", period: 1, price: 5600 });
  });

  it("while on: the agreed price and when it is charged; off sends enabled false", async () => {
    show(rental({ auto_renew: { duration: "4 hours", unit: "hour", period: 4, price: 896, renews_at: "2026-11-27T09:45:00.000Z", paused: null } }));
    const toggle = await screen.findByRole("switch", { name: "Renew automatically" });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId("auto-renew-price").textContent).toMatch(
      // The app's one clock (issue 43): Lagos time, labelled; the year only when it is not this one.
      /^Renews by 4 hours for ₦896\.00 each time, next charged Nov 27, (2026, )?10:45 AM WAT\. Reminders come 24 hours and 1 hour before\.$/,
    );
    script.answers["POST /api/rentals/r1/auto-renew"] = [json(200, { rental: rental() })];
    fireEvent.click(toggle);
    await waitFor(() => expect(bodies).toEqual([{ enabled: false }]));
  });

  it("warns early when the wallet is short of the next renewal, with what to add", async () => {
    show(rental({ auto_renew: { duration: "4 hours", unit: "hour", period: 4, price: 896, renews_at: "2026-11-27T09:45:00.000Z", paused: null } }), { balance: 500 });
    const warning = await screen.findByTestId("auto-renew-unfunded");
    expect(warning.textContent).toMatch(/Your wallet is ₦396\.00 short of the next renewal \(₦896\.00\)\. Fund it before Nov 27, (2026, )?10:45 AM WAT, or the number ends\./);
    expect(screen.getByRole("link", { name: "Fund wallet" }).getAttribute("href")).toContain("amount=396");
  });

  it("says why it paused", async () => {
    show(rental({ auto_renew: { duration: "4 hours", unit: "hour", period: 4, price: 896, renews_at: null, paused: "price" } }));
    expect((await screen.findByTestId("auto-renew-paused")).textContent).toMatch(/renewal price went up/);
    expect(((await screen.findByRole("switch")) as HTMLInputElement).checked).toBe(false);
  });
});

describe("the unfunded warning", () => {
  const on = { duration: "4 hours", unit: "hour" as const, period: 4, price: 896, renews_at: null, paused: null };
  it("only while on and short", () => {
    expect(unfundedWarning(on, 1000)).toBeNull();
    expect(unfundedWarning(on, undefined)).toBeNull();
    expect(unfundedWarning({ ...on, paused: "funds" }, 0)).toBeNull();
    expect(unfundedWarning(null, 0)).toBeNull();
    expect(unfundedWarning(on, 800)?.shortBy).toBe(96);
  });
});
