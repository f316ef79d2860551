import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import { TelegramSection } from "./telegram-section";

// Issue 48, Settings → Telegram: connect with a single-use t.me link, see the chat once connected, disconnect; no card
// at all on a deployment without a bot.

const script: FetchScript = { answers: {}, calls: [] };
const { answers, calls } = script;

const unlinked = { bot_username: "VirtualNumBot", linked: false, chat_name: null, linked_at: null };
const linked = { bot_username: "VirtualNumBot", linked: true, chat_name: "@ada_obi", linked_at: "2026-11-29T09:00:00.000Z" };
const URL_OF_LINK = "https://t.me/VirtualNumBot?start=AbC_12-3";

beforeEach(() => {
  installScriptedFetch(script);
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("Settings → Telegram", () => {
  it("Connect Telegram shows the single-use link to the bot, and the card says Connected once the chat pressed Start", { timeout: 20_000 }, async () => {
    answers["GET /api/telegram"] = [json(200, unlinked), json(200, linked)];
    answers["POST /api/telegram/link"] = [json(200, { url: URL_OF_LINK, expires_at: "2026-11-29T09:10:00.000Z" })];
    renderWithQuery(<TelegramSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Connect Telegram" }));
    const link = (await screen.findByTestId("telegram-link")) as HTMLAnchorElement;
    expect(link.href).toBe(URL_OF_LINK);
    expect(link.textContent).toBe("Open @VirtualNumBot in Telegram");
    expect(link.rel).toContain("noopener");
    expect(screen.getByText(/The link works once, until/)).toBeTruthy();
    // While the link is open the state is read again: the chat pressed Start.
    expect(await screen.findByTestId("telegram-linked", {}, { timeout: 15_000 })).toHaveProperty("textContent", expect.stringContaining("@ada_obi"));
    expect(calls.filter((c) => c === "GET /api/telegram").length).toBeGreaterThanOrEqual(2);
  });

  it("Disconnect Telegram unlinks and shows Connect again", async () => {
    answers["GET /api/telegram"] = [json(200, linked)];
    answers["DELETE /api/telegram/link"] = [json(200, unlinked)];
    renderWithQuery(<TelegramSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Disconnect Telegram" }));
    expect(await screen.findByRole("button", { name: "Connect Telegram" })).toBeTruthy();
    expect(calls).toContain("DELETE /api/telegram/link");
  });

  it("shows nothing when the deployment has no bot (404)", async () => {
    answers["GET /api/telegram"] = [json(404, { code: "NOT_FOUND", message: "Not found." })];
    renderWithQuery(<TelegramSection />);
    await waitFor(() => expect(calls).toContain("GET /api/telegram"));
    await waitFor(() => expect(screen.queryByTestId("telegram-section")).toBeNull());
    expect(screen.queryByText("Connect Telegram")).toBeNull();
  });
});
