import { describe, expect, it } from "vitest";
import { countryAfterProviderChange } from "./provider-country";

describe("countryAfterProviderChange", () => {
  const dynamic = [
    { id: "12", title: "Nigeria" },
    { id: "3", title: "Ghana" },
  ];

  it("resets Swift to country 5 whatever its list holds", () => {
    expect(countryAfterProviderChange("Swift", dynamic)).toBe("5");
    expect(countryAfterProviderChange("Swift", undefined)).toBe("5");
  });

  it("resets Dynamic to its first country id", () => {
    expect(countryAfterProviderChange("Dynamic", dynamic)).toBe("12");
  });

  it("leaves Dynamic unchosen until its countries load", () => {
    expect(countryAfterProviderChange("Dynamic", undefined)).toBe("");
    expect(countryAfterProviderChange("Dynamic", [])).toBe("");
  });
});
