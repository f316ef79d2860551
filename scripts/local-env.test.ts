import { describe, expect, it } from "vitest";
import { lockedBeforeWriting, lockedWhileReading } from "./local-env";

// The operator CLI runs its statements again only when D1 refused them before writing anything (decision 044).
describe("lockedBeforeWriting", () => {
  it("is true for the lock error D1 raises from its transaction (the CLI beside a busy local server)", () => {
    expect(lockedBeforeWriting('{ "error": { "text": "NOSENTRY database is locked: SQLITE_BUSY" } }')).toBe(true);
  });
  it("is false for an internal error, which miniflare raises after the commit, and for any other failure", () => {
    expect(lockedBeforeWriting("internal error; reference = abc (database is locked: SQLITE_BUSY)")).toBe(false);
    expect(lockedBeforeWriting('{ "error": { "text": "no such table: audit_log: SQLITE_ERROR" } }')).toBe(false);
    expect(lockedBeforeWriting('{ "error": { "text": "UNIQUE constraint failed: ledger.idempotency_key" } }')).toBe(false);
  });
});

// A read changes nothing, so it runs again on the lock whatever words it comes back in (the `ledger` read beside a busy
// journeys' server came back as a bare internal error).
describe("lockedWhileReading", () => {
  it("is true for SQLITE_BUSY and for workerd's bare internal error, false for other failures", () => {
    expect(lockedWhileReading("Failed query: select ... D1_ERROR: database is locked: SQLITE_BUSY")).toBe(true);
    expect(lockedWhileReading("Failed query: select ... internal error; reference = pp9vhujd99s2ap46q5p4b7ps")).toBe(true);
    expect(lockedWhileReading('{ "error": { "text": "no such table: audit_log: SQLITE_ERROR" } }')).toBe(false);
  });
});
