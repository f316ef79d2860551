import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { invitationText, ReferralInvitationNotice } from "./referral-invitation";

// Issue 28: a referral link's sign-up page says who invited the customer and what both get (nothing when the reward is 0).

const script: FetchScript = { answers: {}, calls: [] };

describe("the referral invitation on the sign-up page", () => {
  beforeEach(() => installScriptedFetch(script));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("names the inviter and says what each side gets", async () => {
    script.answers["GET /api/referral/ABCD2345"] = [json(200, { code: "ABCD2345", inviter: "Adaeze", reward_percent: 5 })];
    renderWithQuery(<ReferralInvitationNotice code="ABCD2345" />);
    const notice = await screen.findByTestId("referral-invitation");
    expect(notice.textContent).toContain("Adaeze invited you to VirtualNum.");
    expect(notice.textContent).toContain("Adaeze gets a bonus of 5% of it from us");
    expect(notice.textContent).toContain("your deposit is credited in full");
  });

  it("says only who invited when the reward is 0, and shows nothing for an unknown code or no code", async () => {
    expect(invitationText({ code: "X", inviter: "Tunde", reward_percent: 0 })).toEqual({ title: "Tunde invited you to VirtualNum.", detail: null });
    expect(invitationText({ code: "X", inviter: null, reward_percent: 3 }).title).toBe("A friend invited you to VirtualNum.");
    expect(invitationText({ code: "X", inviter: null, reward_percent: 3 }).detail).toContain("they get a bonus of 3%");
    script.answers["GET /api/referral/NOPE2345"] = [json(404, { error: "NOT_FOUND", message: "This referral code does not exist." })];
    renderWithQuery(<ReferralInvitationNotice code="NOPE2345" />);
    await vi.waitFor(() => expect(script.calls).toContain("GET /api/referral/NOPE2345"));
    expect(screen.queryByTestId("referral-invitation")).toBeNull();
    cleanup();
    renderWithQuery(<ReferralInvitationNotice code={undefined} />);
    expect(script.calls.filter((c) => c.startsWith("GET /api/referral"))).toHaveLength(1);
  });
});
