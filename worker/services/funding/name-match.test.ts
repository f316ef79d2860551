import { describe, expect, it } from "vitest";
import { matchNames } from "./name-match";

/** The payout account's name check (issue 45): tolerant of order, case, middle names, initials and abbreviations. */
describe("matchNames", () => {
  it.each([
    ["Ada Obi", "OBI ADA NKEM"],
    ["ada obi", "ADA N. OBI"],
    ["Ada Nkem Obi", "OBI ADA"],
    ["Mohammed Bello", "MOHD BELLO"],
    ["Muhammad Sani Bello", "BELLO, MUHAMMED S."],
    ["Mrs Fatimah Yusuf", "YUSUFF FATIMA"],
  ])("%s matches the bank's %s", (ours, theirs) => {
    expect(matchNames(ours, theirs)).toEqual({ matched: true });
  });

  it.each([
    ["Ada Obi", "CHINEDU OKAFOR"],
    ["Ada Obi", "ADA OKAFOR"],
    ["Ada Obi", "A OBI"],
    ["Ada Obi", "OBI"],
  ])("%s does not match %s, and the refusal says what did not", (ours, theirs) => {
    const result = matchNames(ours, theirs);
    expect(result.matched).toBe(false);
    if (!result.matched) expect(result.reason).toContain(`belongs to ${theirs}`);
  });

  it("needs two names to compare", () => {
    const result = matchNames("Ada", "ADA OBI");
    expect(result).toMatchObject({ matched: false, reason: expect.stringMatching(/first name and surname/) });
  });
});
