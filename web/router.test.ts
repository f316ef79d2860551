import { describe, expect, it } from "vitest";

// Issue 43: `#/prices` answered "Page not found" while `#/status` worked bare; a screen numbered "/1" opens bare too.
describe("bare screen addresses", () => {
  it("send #/prices to #/prices/1 and #/signup?ref=X to #/signup/1?ref=X; an unknown name is still not found", async () => {
    window.location.hash = "#/prices";
    const { router } = await import("./router");
    await router.load();
    expect(router.state.location.pathname).toBe("/prices/1");

    await router.navigate({ href: "/signup?ref=ADA1" });
    expect(router.state.location.pathname).toBe("/signup/1");
    expect(router.state.location.searchStr).toBe("?ref=ADA1");

    await router.navigate({ href: "/nowhere" });
    expect(router.state.location.pathname).toBe("/nowhere/1");
    // No screen has that name: nothing but the bare-name route's partial match, and the router's "Page not found".
    expect(router.state.matches.some((m) => m.routeId.endsWith("/$id"))).toBe(false);
  });
});
