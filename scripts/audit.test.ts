import { describe, expect, it } from "vitest";
import { judgeAudit, type AuditException, type AuditReport, type Via } from "./audit";

// Issue 33 (ASVS 15.1.2): the CI step fails only on a high or critical advisory that no dated exception covers.
const advisory = (name: string, severity: string, ghsa: string): Via => ({ source: 1, name, title: `${name} problem`, url: `https://github.com/advisories/${ghsa}`, severity });
const report = (...vulns: { name: string; severity: string; via: (Via | string)[] }[]): AuditReport => ({ vulnerabilities: Object.fromEntries(vulns.map((v) => [v.name, v])) });

describe("judging npm audit --omit=dev", () => {
  it("passes a clean report and one with only low or moderate advisories", () => {
    expect(judgeAudit(report(), [], "2026-11-26")).toEqual({ kind: "ok", findings: [], excepted: [], lower: 0 });
    const moderate = report({ name: "left-pad", severity: "moderate", via: [advisory("left-pad", "moderate", "GHSA-aaaa-bbbb-cccc")] });
    expect(judgeAudit(moderate, [], "2026-11-26")).toMatchObject({ kind: "ok", lower: 1 });
  });

  it("fails on a high or critical advisory, naming it, and not twice for a package flagged only through another", () => {
    const bad = report(
      { name: "hono", severity: "high", via: [advisory("hono", "high", "GHSA-1111-2222-3333")] },
      { name: "wrapper", severity: "high", via: ["hono"] },
      { name: "zod", severity: "critical", via: [advisory("zod", "critical", "GHSA-4444-5555-6666")] },
    );
    const verdict = judgeAudit(bad, [], "2026-11-26");
    expect(verdict.kind).toBe("failed");
    expect(verdict.kind === "failed" && verdict.findings).toEqual([
      { package: "hono", severity: "high", advisory: "GHSA-1111-2222-3333", title: "hono problem" },
      { package: "zod", severity: "critical", advisory: "GHSA-4444-5555-6666", title: "zod problem" },
    ]);
  });

  it("an exception covers only its advisory in its package, and only until its date", () => {
    const bad = report({ name: "hono", severity: "high", via: [advisory("hono", "high", "GHSA-1111-2222-3333")] });
    const exception: AuditException = { advisory: "GHSA-1111-2222-3333", package: "hono", reason: "not reachable from our routes; fix pending upstream", until: "2026-12-31" };
    expect(judgeAudit(bad, [exception], "2026-11-26")).toMatchObject({ kind: "ok", excepted: [{ advisory: "GHSA-1111-2222-3333" }] });
    expect(judgeAudit(bad, [exception], "2027-01-01").kind).toBe("failed");
    expect(judgeAudit(bad, [{ ...exception, package: "other" }], "2026-11-26").kind).toBe("failed");
  });

  it("a registry that cannot answer audits is 'unavailable', never a pass by silence", () => {
    const verdict = judgeAudit({ message: "405 Method Not Allowed - POST <registry>/-/npm/v1/security/advisories/bulk", statusCode: 405 }, [], "2026-11-26");
    expect(verdict).toEqual({ kind: "unavailable", reason: "405 Method Not Allowed - POST <registry>/-/npm/v1/security/advisories/bulk" });
  });
});
