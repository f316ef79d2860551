import { describe, expect, it } from "vitest";
import { INSTALL_COMMAND, planBrowser } from "./ensure-browser";

// `npm test` finds Debian's Chromium or installs it from the system's packages before any suite (issue 50).
const machine = (installed: string[], over: Partial<Parameters<typeof planBrowser>[0]> = {}) =>
  planBrowser({ present: (binary) => installed.includes(binary), isRoot: false, passwordlessSudo: () => false, hasAptGet: true, ...over });

describe("planBrowser", () => {
  it("uses what is there when both packages are installed", () => {
    expect(machine(["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"])).toEqual({ kind: "present", binary: "/usr/bin/chromium-headless-shell" });
  });
  it("installs both packages as root on a machine without Chromium, without sudo", () => {
    expect(machine([], { isRoot: true })).toEqual({ kind: "install", packages: ["chromium-headless-shell", "chromium"], sudo: false });
  });
  it("installs through passwordless sudo, only what is missing", () => {
    expect(machine(["/usr/bin/chromium"], { passwordlessSudo: () => true })).toEqual({ kind: "install", packages: ["chromium-headless-shell"], sudo: true });
  });
  it("stops with the one command to run when it cannot install and nothing is there", () => {
    const plan = machine([]);
    expect(plan.kind).toBe("stop");
    expect(plan.kind === "stop" && plan.message).toContain(INSTALL_COMMAND);
    expect(machine([], { hasAptGet: false }).kind).toBe("stop");
  });
  it("runs the journeys in the one browser there is when it cannot install the other", () => {
    expect(machine(["/usr/bin/chromium"])).toEqual({ kind: "present", binary: "/usr/bin/chromium" });
  });
  it("honours CHROMIUM_PATH, and says so when it points nowhere", () => {
    expect(machine(["/opt/chrome"], { chromiumPath: "/opt/chrome" })).toEqual({ kind: "present", binary: "/opt/chrome" });
    const plan = machine([], { chromiumPath: "/opt/none", isRoot: true });
    expect(plan.kind === "stop" && plan.message).toContain("/opt/none");
  });
});
