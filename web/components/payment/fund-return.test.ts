import { describe, expect, it } from "vitest";
import { forgetSmsChoice, FUND_RETURN_MAX_AGE_MS, peekSmsChoice, rememberFundReturn, rememberSmsChoice, takeFundReturn } from "./fund-return";
import { backPath, fundWalletPath, shortfallNaira, shortfallText } from "./shortfall";

describe("Shortfall -> Fund wallet -> Pay -> back (issue 43)", () => {
  it("goes back to the screen that refused, once, only for the payment started from it, within the hour", () => {
    rememberFundReturn("sms", "REF-1", localStorage, 1_000);
    expect(takeFundReturn("REF-2", localStorage, 2_000)).toBeNull();
    expect(takeFundReturn("REF-1", localStorage, 2_000)).toEqual({ path: "/sms/1", label: "Receive SMS" });
    expect(takeFundReturn("REF-1", localStorage, 3_000)).toBeNull();

    rememberFundReturn("number", "REF-3", localStorage, 0);
    expect(takeFundReturn("REF-3", localStorage, FUND_RETURN_MAX_AGE_MS + 1)).toBeNull();
  });

  it("keeps Receive SMS's choice for the way back until it is restored", () => {
    rememberSmsChoice({ provider: "Dynamic", countryId: "19", serviceId: "wa", quantity: 2 }, localStorage, 0);
    expect(peekSmsChoice(localStorage, 60_000)).toEqual({ provider: "Dynamic", countryId: "19", serviceId: "wa", quantity: 2 });
    forgetSmsChoice(localStorage);
    expect(peekSmsChoice(localStorage, 60_000)).toBeNull();
    localStorage.setItem("sms-choice", "{not json");
    expect(peekSmsChoice()).toBeNull();
  });

  it("says the shortfall to the kobo and prefills the whole naira above it, with the way back", () => {
    expect(shortfallNaira(2_822.4, 800)).toBe(2_022.4);
    expect(shortfallText(2_022.4)).toBe("Insufficient balance: you need ₦2,022.40 more.");
    expect(fundWalletPath(2_022.4, "sms")).toBe("/payment/1?amount=2023&back=sms");
    expect(fundWalletPath()).toBe("/payment/1");
    expect(backPath("sms")).toBe("sms");
    expect(backPath("https://evil.example")).toBeUndefined();
  });
});
