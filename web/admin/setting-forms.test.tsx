import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SETTING_DEFAULTS } from "../../schema/settings";
import { NumberSettingForm } from "./pages/prices";
import PricesPage from "./pages/prices";
import { readable, readableChange } from "./readable";
import { fromFormValues, NUMBER_FORMS, toFormValues } from "./setting-forms";

vi.mock("../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

describe("settings as forms: units a person thinks in, stored as the server's schema wants", () => {
  it("polling reads 'check every 6 s, up to 15 times' and saves milliseconds", () => {
    const form = NUMBER_FORMS.sms_poll;
    expect(toFormValues(form, { interval_ms: 6000, max_attempts: 15 })).toEqual({ interval_ms: "6", max_attempts: "15" });
    expect(form.preview({ interval_ms: 6000, max_attempts: 15 })).toBe("Check every 6 s, up to 15 times: a number is held about 90 s before it is refunded.");
    expect(fromFormValues(form, { interval_ms: "7.5", max_attempts: "20" })).toEqual({ value: { interval_ms: 7500, max_attempts: 20 } });
  });

  it("markups are percentages on screen and fractions stored; out of bounds says which field and why", () => {
    const form = NUMBER_FORMS.costs;
    expect(toFormValues(form, { low_cost: 0.3, high_cost: 0.5, rent_cost: 0.4 })).toEqual({ low_cost: "30", high_cost: "50", rent_cost: "40" });
    expect(fromFormValues(form, { low_cost: "30", high_cost: "50", rent_cost: "40" })).toEqual({ value: { low_cost: 0.3, high_cost: 0.5, rent_cost: 0.4 } });
    expect(fromFormValues(form, { low_cost: "-5", high_cost: "50", rent_cost: "40" })).toEqual({ error: "Markup on SMS up to ₦1,000: at least 0 %.", field: "low_cost" });
    expect(fromFormValues(NUMBER_FORMS.sms_poll, { interval_ms: "6", max_attempts: "2.5" })).toMatchObject({ field: "max_attempts" });
    expect(fromFormValues(NUMBER_FORMS.sms_poll, { interval_ms: "", max_attempts: "2" })).toMatchObject({ error: expect.stringMatching(/enter a number/) });
  });

  it("the polling form shows labelled fields with units and a live preview, and saves the stored shape with a reason", async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ key: "sms_poll", value: { interval_ms: 5000, max_attempts: 20 } }), { status: 200 });
    });
    const save = vi.fn(async (c: { key: string; value: unknown; reason: string }) => {
      await fetch(`/api/admin/settings/${c.key}`, { method: "PATCH", body: JSON.stringify({ value: c.value, reason: c.reason }) });
    });
    render(<NumberSettingForm name="sms_poll" form={NUMBER_FORMS.sms_poll} value={{ interval_ms: 6000, max_attempts: 15 }} save={save} />);
    const form = within(screen.getByTestId("setting-sms_poll"));
    expect(form.getByTestId("setting-preview").textContent).toMatch(/^Check every 6 s, up to 15 times/);
    const every = form.getByLabelText("Check for the code every") as HTMLInputElement;
    expect(every.value).toBe("6");
    expect(every.min).toBe("0.2");
    expect(form.getByText("s (from 0.2 to 600)")).toBeTruthy();
    fireEvent.change(every, { target: { value: "5" } });
    fireEvent.change(form.getByLabelText("Check at most"), { target: { value: "20" } });
    expect(form.getByTestId("setting-preview").textContent).toMatch(/^Check every 5 s, up to 20 times: a number is held about 100 s/);
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "slower upstream" } });
    fireEvent.click(form.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ key: "sms_poll", value: { interval_ms: 5000, max_attempts: 20 }, reason: "slower upstream" }));
  });

  it("the page offers every setting as labelled fields, an ad's colour from a named palette, and shows the server's refusal", async () => {
    // jsdom has no scrolling; the carousel preview scrolls its track.
    Element.prototype.scrollTo = () => {};
    const patches: { url: string; body: { value: unknown } }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      if (init.method === "PATCH") {
        patches.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ code: "VALIDATION_FAILED", error: "x", message: "Invalid value for exchange_rate: rate: Too small" }), { status: 400 });
      }
      return new Response(JSON.stringify({ settings: SETTING_DEFAULTS, defaults: SETTING_DEFAULTS, history: [] }), { status: 200 });
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <PricesPage />
      </QueryClientProvider>,
    );
    expect(await screen.findByLabelText("Naira per US dollar")).toBeTruthy();
    for (const label of ["Markup on SMS up to ₦1,000", "Smallest crypto deposit", "Share of the referred customer's first deposit", "Check for the code every", "Highest SMS price sold", "Bronze: discount", "Chat payments above this need a fresh confirmation"]) {
      expect(screen.getByLabelText(label), label).toBeTruthy();
    }
    expect(screen.queryByRole("textbox", { name: /JSON/ })).toBeNull();
    // Issue 32's routes and issue 30's slot limits are fields too: each provider's upstreams in order, said back in words.
    expect((screen.getByRole("textbox", { name: "Swift SMS: upstreams in order (comma-separated)" }) as HTMLInputElement).value).toBe("daisysms, herosms, grizzly");
    expect((screen.getByRole("textbox", { name: "Dynamic SMS: upstreams in order (comma-separated)" }) as HTMLInputElement).value).toBe("smsman, herosms, grizzly");
    expect(screen.getByText(/Swift SMS is bought from daisysms, then herosms, then grizzly; Dynamic SMS is bought from smsman, then herosms, then grizzly/)).toBeTruthy();
    expect(screen.getByText("Each upstream's documented limit applies (DaisySMS: 20 per account).")).toBeTruthy();
    // Colour by name, not "bg-emerald-600".
    const palette = within(screen.getByRole("group", { name: "Ad 1 colour" }));
    expect((palette.getByRole("radio", { name: "Emerald green" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByText("bg-emerald-600")).toBeNull();
    fireEvent.click(palette.getByRole("radio", { name: "Violet" }));
    expect((palette.getByRole("radio", { name: "Violet" }) as HTMLInputElement).checked).toBe(true);

    const rate = within(screen.getByTestId("setting-exchange_rate"));
    fireEvent.change(rate.getByLabelText("Naira per US dollar"), { target: { value: "1650" } });
    fireEvent.change(rate.getByLabelText(/Reason/), { target: { value: "market moved" } });
    fireEvent.click(rate.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(rate.getByRole("alert").textContent).toContain("Invalid value for exchange_rate"));
    expect(patches).toEqual([{ url: "/api/admin/settings/exchange_rate", body: { value: { rate: 1650 }, reason: "market moved" } }]);
  }, 30_000);
});

describe("the audit log reads as words", () => {
  it("dates are dates, kobo is naira, objects are name: value", () => {
    const at = Date.UTC(2026, 10, 25, 14, 30);
    expect(readable(at)).not.toMatch(/^\d+$/);
    expect(readable(String(at))).toBe(readable(at));
    expect(readable({ interval_ms: 6000, max_attempts: 15 })).toBe("interval ms: 6,000, max attempts: 15");
    expect(readableChange({ action: "ledger.credit", previous: "10000", detail: { amountKobo: 250000, customerMessage: "Sorry" } })).toEqual({
      before: "Balance ₦100.00",
      after: "Credited ₦2,500.00 (customer told: “Sorry”)",
    });
    expect(readableChange({ action: "user.block", previous: null, detail: { blocked: true } })).toEqual({ before: "Not blocked", after: "Blocked" });
    expect(readableChange({ action: "user.unblock", previous: String(at), detail: { blocked: false } }).before).toBe(`Blocked since ${readable(at)}`);
  });
});
