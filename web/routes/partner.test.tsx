import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../test/scripted-fetch";
import PartnerPage, { wholesaleNextLine } from "./partner";

// Issue 46: the partner dashboard. A customer accepts the reseller terms here; a reseller sees its sub-accounts.

const script: FetchScript = { answers: {}, calls: [] };
const NOT_YET = { reseller: false, status: null, terms_version: "2026-11", terms_accepted_at: null, markup_percent: 0, margin_earned: 0, subaccount_spend: 0 };
const RESELLER = { ...NOT_YET, reseller: true, status: "active", terms_accepted_at: "2026-11-29T07:00:00.000Z", markup_percent: 15, margin_earned: 312.4, subaccount_spend: 2400 };
const KEY = { id: "k1", name: "my bot", mode: "live", prefix: "sk_live_Ab12", created_at: "2026-11-29T07:00:00.000Z", last_used_at: null, revoked_at: null, webhook_url: null };
const SUB = { id: "sub_1", external_id: "tg-5550123", name: "Ada", status: "frozen", balance: 1500.5, currency: "NGN", created_at: "2026-11-29T07:00:00.000Z", frozen_at: null, closed_at: null };

/** The text of the elements an input's aria-describedby names (its hint and its error). */
const describedText = (input: HTMLElement) =>
  (input.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

describe("the partner dashboard", () => {
  beforeEach(() => {
    installScriptedFetch(script);
    localStorage.setItem("authToken", "t"); // signed in: the screen's calls carry the token
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it("asks a customer to accept the terms (the button waits for the box), then shows the sub-accounts", async () => {
    script.answers["GET /api/reseller"] = [json(200, NOT_YET), json(200, RESELLER)];
    script.answers["POST /api/reseller"] = [json(200, RESELLER)];
    script.answers["GET /api/reseller/subaccounts"] = [json(200, { data: [SUB] })];
    script.answers["GET /api/reseller/markups"] = [json(200, { percent: 15, services: {}, max_percent: 100 })];
    script.answers["GET /api/keys"] = [json(200, { data: [KEY, { ...KEY, id: "k2", name: "old", revoked_at: "2026-11-29T08:00:00.000Z" }] })];
    renderWithQuery(<PartnerPage />);
    const button = await screen.findByRole("button", { name: "Become a reseller" });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText("I accept the reseller terms"));
    fireEvent.click(button);
    const table = await screen.findByTestId("subaccounts-table");
    const row = within(table).getByRole("row", { name: /Ada/ });
    expect(row.textContent).toContain("tg-5550123");
    expect(row.textContent).toContain("frozen");
    expect(row.textContent).toContain("₦1,500.50");
    // The figures: margin earned, the sub-accounts' spend, the markup; the live (unrevoked) partner keys.
    expect(screen.getByTestId("margin-earned").textContent).toBe("₦312.40");
    expect(screen.getByTestId("subaccount-spend").textContent).toBe("₦2,400.00");
    expect(screen.getByTestId("markup").textContent).toBe("15%");
    expect((await screen.findByTestId("partner-keys")).textContent).toContain("my bot · sk_live_Ab12… · live");
    expect(screen.getByTestId("partner-keys").textContent).not.toContain("old");
    const post = vi.mocked(fetch).mock.calls.find(([url, init]) => String(url) === "/api/reseller" && init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ accept_terms: true });
  });

  it("sets the markups from the form: labelled inputs, errors tied to them, the server's field error, a saved line", async () => {
    const MARKUPS = { percent: 10, services: { wa: 25 }, max_percent: 100 };
    // Each save refetches the role (its "Your markup" figure).
    script.answers["GET /api/reseller"] = Array.from({ length: 5 }, () => json(200, RESELLER));
    script.answers["GET /api/reseller/subaccounts"] = [json(200, { data: [] })];
    script.answers["GET /api/reseller/markups"] = [json(200, MARKUPS)];
    script.answers["GET /api/keys"] = [json(200, { data: [] })];
    script.answers["PUT /api/reseller/markups"] = [
      json(400, { error: "VALIDATION_FAILED", code: "VALIDATION_FAILED", message: "A markup is at most 100% (services.tg is 100.5%).", field: "services.tg" }),
      json(200, { percent: 12.5, services: { wa: 25, tg: 30 }, max_percent: 100 }),
    ];
    renderWithQuery(<PartnerPage />);
    const flat = (await screen.findByLabelText("Flat markup (%)")) as HTMLInputElement;
    expect(flat.value).toBe("10");
    expect((screen.getByLabelText("Service code 1") as HTMLInputElement).value).toBe("wa");
    expect((screen.getByLabelText("Markup for service 1 (%)") as HTMLInputElement).value).toBe("25");
    const save = screen.getByRole("button", { name: "Save markups" });

    // Checked before sending: below zero, more than two decimals, above the ceiling, a bad or repeated code; the error
    // is the input's description and marks it invalid; nothing is sent.
    fireEvent.change(flat, { target: { value: "-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Add a service markup" }));
    fireEvent.change(screen.getByLabelText("Service code 2"), { target: { value: "wa" } });
    fireEvent.change(screen.getByLabelText("Markup for service 2 (%)"), { target: { value: "1.234" } });
    fireEvent.click(save);
    expect(flat.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(flat)).toContain("A markup is a number, 0 or more.");
    expect(describedText(screen.getByLabelText("Service code 2"))).toContain("This service is listed twice.");
    fireEvent.change(flat, { target: { value: "150" } });
    fireEvent.click(save);
    expect(describedText(flat)).toContain("A markup is at most 100%.");
    expect(script.calls).not.toContain("PUT /api/reseller/markups");

    // Fixed; the server refuses one value (its one error body names the field): shown at that input.
    fireEvent.change(flat, { target: { value: "12.5" } });
    fireEvent.change(screen.getByLabelText("Service code 2"), { target: { value: "tg" } });
    fireEvent.change(screen.getByLabelText("Markup for service 2 (%)"), { target: { value: "30" } });
    fireEvent.click(save);
    await waitFor(() => expect(describedText(screen.getByLabelText("Markup for service 2 (%)"))).toContain("at most 100% (services.tg"));
    expect(flat.getAttribute("aria-invalid")).toBe("false");
    expect(screen.getByRole("status").textContent).toBe("");

    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Markups saved."));
    expect(screen.getByLabelText("Markup for service 2 (%)").getAttribute("aria-invalid")).toBe("false");
    const puts = vi.mocked(fetch).mock.calls.filter(([url, init]) => String(url) === "/api/reseller/markups" && init?.method === "PUT");
    expect(puts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { percent: 12.5, services: { wa: 25, tg: 30 } },
      { percent: 12.5, services: { wa: 25, tg: 30 } },
    ]);

    // Removing a service sends the rest (a PUT replaces the markups whole).
    script.answers["PUT /api/reseller/markups"] = [json(200, { percent: 12.5, services: { tg: 30 }, max_percent: 100 })];
    fireEvent.click(screen.getByRole("button", { name: "Remove service 1" }));
    expect(screen.getByRole("status").textContent).toBe("");
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Markups saved."));
    const last = vi.mocked(fetch).mock.calls.filter(([url, init]) => String(url) === "/api/reseller/markups" && init?.method === "PUT").at(-1);
    expect(JSON.parse(String(last?.[1]?.body))).toEqual({ percent: 12.5, services: { tg: 30 } });
  });

  it("shows the wholesale tier, the 30-day spend and what the next tier needs (or that the top is reached)", async () => {
    const wholesale = {
      spend_30d: 300_000,
      as_of: "2026-11-29T11:00:00.000Z",
      tier: { name: "Wholesale 5", threshold: 250_000, percentage: 5 },
      next: { name: "Wholesale 10", threshold: 1_000_000, percentage: 10, remaining: 700_000 },
    };
    script.answers["GET /api/reseller"] = [json(200, { ...RESELLER, wholesale })];
    // The page's other sections read too: answered, so their queries hold data (React Query refuses undefined).
    script.answers["GET /api/reseller/subaccounts"] = [json(200, { data: [] })];
    script.answers["GET /api/reseller/markups"] = [json(200, { percent: 0, services: {}, max_percent: 100 })];
    script.answers["GET /api/keys"] = [json(200, { data: [] })];
    renderWithQuery(<PartnerPage />);
    const section = await screen.findByTestId("wholesale");
    expect(within(section).getByRole("heading").textContent).toBe("Wholesale tier: Wholesale 5 (5% off)");
    expect(screen.getByTestId("wholesale-spend").textContent).toBe("₦300,000.00");
    expect(section.textContent).toContain("(as of 12:00 PM WAT)");
    expect(screen.getByTestId("wholesale-next").textContent).toBe("₦700,000.00 more spend to the next tier (Wholesale 10, 10% off).");
    expect(wholesaleNextLine({ ...wholesale, next: null })).toBe("You are on the top wholesale tier.");
  });

  it("says so when an operator revoked the role, with no way to accept again", async () => {
    script.answers["GET /api/reseller"] = [json(200, { ...NOT_YET, status: "revoked" })];
    renderWithQuery(<PartnerPage />);
    expect(await screen.findByText(/reseller access was revoked/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Become a reseller" })).toBeNull();
  });
});
