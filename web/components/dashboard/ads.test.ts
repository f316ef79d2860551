import { describe, expect, it } from "vitest";
import { collapseSlashes } from "./ads";

describe("ad image addresses", () => {
  it("collapses duplicate slashes but keeps the scheme's", () => {
    expect(collapseSlashes("https://cdn.example.com//ads///one.png")).toBe("https://cdn.example.com/ads/one.png");
    expect(collapseSlashes("//ads//two.svg")).toBe("/ads/two.svg");
    expect(collapseSlashes("/ads/three.svg")).toBe("/ads/three.svg");
  });
});
