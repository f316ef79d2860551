import { describe, expect, it } from "vitest";
import { settingSchemas, SETTING_DEFAULTS } from "../../../schema/settings";

describe("ads setting", () => {
  const ad = (url: string) => [{ id: 1, url, link: "/#/sms/1", content: "Offer", bg: "bg-emerald-600" }];
  it("accepts the seeded ads, site paths and https addresses", () => {
    expect(settingSchemas.ads.safeParse(SETTING_DEFAULTS.ads).success).toBe(true);
    expect(settingSchemas.ads.safeParse(ad("/ads/rent.svg")).success).toBe(true);
    expect(settingSchemas.ads.safeParse(ad("https://cdn.example.com/a.png")).success).toBe(true);
  });
  it.each(["ads/rent.svg", "//evil.example/a.png", "http://cdn.example.com/a.png", "javascript:alert(1)", ""])("refuses %j with a clear message", (url) => {
    const res = settingSchemas.ads.safeParse(ad(url));
    expect(res.success).toBe(false);
    expect(res.error?.issues[0].message).toBe("An ad image is a path on this site (/ads/offer.svg) or an https:// address.");
  });
});
