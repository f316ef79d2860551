import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../schema/settings";

// Issue 19: the seeded ads pointed at images that 404ed. A relative ad url is served from web/public (Vite copies it
// into the build the worker serves), so each seeded one must be a file there; an absolute one must be https.
describe("seeded ads", () => {
  const publicDir = path.resolve(import.meta.dirname, "../web/public");
  it.each(SETTING_DEFAULTS.ads.map((ad) => [ad.url]))("%s exists and is an image", (url) => {
    if (/^https:\/\//.test(url)) return expect(url).toMatch(/^https:\/\/[^/]+\/.+/);
    expect(url.startsWith("/")).toBe(true);
    const file = path.join(publicDir, url);
    expect(existsSync(file), file).toBe(true);
    expect(readFileSync(file, "utf8")).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
