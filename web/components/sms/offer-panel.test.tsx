import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SmsOfferResponse } from "../../../schema/sms";
import OfferPanel from "./offer-panel";
import { NO_CHOICE } from "./offer-words";

afterEach(cleanup);

const offer = (over: Partial<SmsOfferResponse> = {}): SmsOfferResponse => ({
  provider: "Swift",
  country_id: "5",
  country: "USA",
  service_id: "wa",
  service: "WhatsApp",
  price: 1000,
  base_price: 1000,
  surcharge_percent: 0,
  choices: {},
  record: { sample: 120, success_rate: 88, median_seconds_to_code: 50 },
  min_sample: 30,
  window_days: 7,
  better: null,
  ...over,
});

describe("the offer beside the Buy button (issue 49)", () => {
  it("shows the record; no choice fields where no upstream documents one (absent, not disabled)", () => {
    render(<OfferPanel offer={offer()} pending={false} error={null} fields={NO_CHOICE} onFields={() => undefined} onBetter={() => undefined} />);
    expect(screen.getByTestId("sms-offer-record").textContent).toBe("88% got a code in the last 7 days, typically in 50 s (from 120 orders).");
    expect(screen.queryByText("Carrier (optional)")).toBeNull();
    expect(screen.queryByText("Area code (optional)")).toBeNull();
    expect(screen.queryByTestId("sms-offer-better")).toBeNull();
  });

  it("offers carrier and area codes where documented, says the surcharge before the click, and checks area codes", () => {
    const onFields = vi.fn();
    const choices = { carriers: { options: [{ value: "tmo", label: "T-Mobile" }], surcharge_percent: 20 }, areas: { max: 10, surcharge_percent: 20 } };
    render(
      <OfferPanel
        offer={offer({ choices, price: 1400, surcharge_percent: 40 })}
        pending={false}
        error={null}
        fields={{ carrier: "tmo", areas: "212, 1x", operator: "" }}
        onFields={onFields}
        onBetter={() => undefined}
      />,
    );
    expect(screen.getByText("Carrier (optional)")).toBeTruthy();
    expect(screen.getByText("Only numbers of this carrier. Adds 20% to the price (the provider's own charge).")).toBeTruthy();
    expect(screen.getByTestId("sms-choice-surcharge").textContent).toBe("Your choice costs 40% more (the provider's own charge): ₦1,400.00 instead of ₦1,000.00.");
    expect(screen.getByRole("alert").textContent).toMatch(/three digits/);
    fireEvent.change(screen.getByTestId("sms-area-codes"), { target: { value: "212" } });
    expect(onFields).toHaveBeenCalledWith({ carrier: "tmo", areas: "212", operator: "" });
  });

  it("a better route is one tap; a choice that cannot be honoured is said instead of the price", () => {
    const onBetter = vi.fn();
    const better = { provider: "Dynamic" as const, country_id: "11", country: "United Kingdom", service_id: "1", service: "WhatsApp", price: 950, record: { sample: 60, success_rate: 98, median_seconds_to_code: 30 } };
    const { rerender } = render(<OfferPanel offer={offer({ better })} pending={false} error={null} fields={NO_CHOICE} onFields={() => undefined} onBetter={onBetter} />);
    fireEvent.click(screen.getByTestId("sms-offer-better"));
    expect(onBetter).toHaveBeenCalledWith(better);
    rerender(<OfferPanel offer={offer()} pending={false} error="No provider can honour this combination." fields={NO_CHOICE} onFields={() => undefined} onBetter={onBetter} />);
    expect(screen.getByTestId("sms-choice-refused").textContent).toBe("No provider can honour this combination.");
  });
});
