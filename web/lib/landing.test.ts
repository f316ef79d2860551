import { describe, expect, it } from "vitest";
import indexHtml from "../index.html?raw";
import { isLandingHash } from "./landing";

const inlineScript = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)![1];

/** Runs index.html's inline head script for a hash: the attributes it sets on <html>. */
function inlineScriptAttributes(hash: string): Set<string> {
  const attrs = new Set<string>();
  const documentElement = { setAttribute: (name: string) => attrs.add(name), classList: { toggle: () => undefined } };
  new Function("location", "document", "localStorage", "matchMedia", inlineScript)(
    { hash },
    { documentElement },
    { getItem: () => null },
    () => ({ matches: false }),
  );
  return attrs;
}
/** True when the script leaves the prerendered landing markup visible. */
const inlineScriptShowsLanding = (hash: string) => !inlineScriptAttributes(hash).has("data-spa");

describe("which addresses show the prerendered landing page", () => {
  const cases: [string, boolean][] = [
    ["", true],
    ["#/", true],
    ["#/homepage/1", true],
    ["#/dashboard/1", false],
    ["#/login", false],
    ["#/terms/1?section=Contact", false],
  ];
  it.each(cases)("%s -> %s, in main.tsx and in index.html's first-paint script alike", (hash, landing) => {
    expect(isLandingHash(hash)).toBe(landing);
    expect(inlineScriptShowsLanding(hash)).toBe(landing);
  });
});

describe("which addresses show the status page's prerendered frame (issue 32)", () => {
  it.each([
    ["#/status", true],
    ["#/status?x=1", true],
    ["#/statusx", false],
    ["", false],
    ["#/dashboard/1", false],
  ] as [string, boolean][])("%s -> %s", (hash, shown) => {
    expect(inlineScriptAttributes(hash).has("data-status")).toBe(shown);
    // The landing markup stays hidden there like on any other screen.
    if (shown) expect(inlineScriptShowsLanding(hash)).toBe(false);
  });
});
