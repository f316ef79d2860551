import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { DeveloperShare, refExamples } from "./ref-share";

// Issue 46 (decision 075): the developer's ref share on the API reference page: the code, the figures, how to send it.

const script: FetchScript = { answers: {}, calls: [] };
const SHARE = { code: "K7QP3MZX", percent: 5, earned: 1234.5, orders: 41, last_30_days: { earned: 60.25, orders: 1 }, currency: "NGN" };

describe("the developer's ref share", () => {
  beforeEach(() => {
    installScriptedFetch(script);
    localStorage.setItem("authToken", "t");
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it("shows the code, what it earned in all and over 30 days, and a curl line for each API carrying it", async () => {
    script.answers["GET /api/keys/ref-share"] = [json(200, SHARE)];
    renderWithQuery(<DeveloperShare baseUrl="https://vnum.example/api/v1" />);
    expect((await screen.findByTestId("ref-code")).textContent).toBe("K7QP3MZX");
    expect(screen.getByTestId("ref-earned").textContent).toBe("₦1,234.50 · 41 purchases");
    expect(screen.getByTestId("ref-recent").textContent).toBe("₦60.25 · 1 purchase");
    expect(screen.getByTestId("ref-share").textContent).toContain("you earn 5% of our price");
    const how = screen.getByLabelText("How to send your ref").textContent ?? "";
    expect(how).toContain(`"ref":"K7QP3MZX"`);
    expect(how).toContain(`curl -s "https://vnum.example/api/v1/rentals"`);
    expect(how).toContain(`"period":1,"ref":"K7QP3MZX"`);
    expect(how).toContain("https://vnum.example/stubs/handler_api.php?api_key=$VNUM_KEY&action=getNumber&service=wa&country=187&ref=K7QP3MZX");
  });

  it("says so when the figures cannot be read", async () => {
    script.answers["GET /api/keys/ref-share"] = [json(500, { code: "INTERNAL", message: "x", error: "x" })];
    renderWithQuery(<DeveloperShare baseUrl="/api/v1" />);
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy();
  });

  it("builds the protocol's address beside the JSON API's base, with or without a trailing slash", () => {
    expect(refExamples("/api/v1", "AB")).toContain(`curl -s "/stubs/handler_api.php?`);
    expect(refExamples("https://x.example/api/v1/", "AB")).toContain(`"https://x.example/stubs/handler_api.php?`);
    expect(refExamples("https://x.example/api/v1/", "AB").split("\n")[0]).toContain(`"https://x.example/api/v1/sms/orders"`);
  });
});
