import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NotificationSettingsView } from "../../../schema/notifications";
import { clearSession, saveSession } from "../../lib/session";
import { pushOnForThisSignIn } from "../../lib/push-flags";
import { installScriptedFetch, json, renderWithQuery, type FetchScript } from "../../test/scripted-fetch";
import NotificationsSection from "./notifications-section";

// Settings → Notifications (issue 47): the browser's permission is asked only from the tap on "Turn on", never on load;
// the devices, the choices, the iPhone Home Screen note.
const script: FetchScript = { answers: {}, calls: [], bodies: [] };
const KEY = "BFren02dVxiX7Ij1izMIPzZ6_cXf4_OatHZ4xgQbP4mi3i6Vc3T_OztuPFZ6VBb_3miUoH8UFnwwEJvJlSbt2BI";
const DEVICE = { id: "psub_1", label: "Chrome on Android", push_service: "fcm.googleapis.com", created_at: "2026-11-01T10:00:00.000Z", last_pushed_at: null, this_session: true };

function view(devices: NotificationSettingsView["push"]["devices"] = []): NotificationSettingsView {
  return {
    push: { public_key: KEY, devices, kinds: { "sms.code": true, "rental.sms": true, "payment.credited": true, refund: true, "rental.reminder": true, withdrawal: true }, hide_code: false },
    forwarding: { email: false, email_address: "ada@example.com", webhook_url: null, telegram: true, webhook_secret: null },
  };
}

const requestPermission = vi.fn<() => Promise<NotificationPermission>>();
const subscribe = vi.fn();
const register = vi.fn();
const postMessage = vi.fn();
const SUBSCRIPTION_JSON = { endpoint: "https://fcm.googleapis.com/fcm/send/abc", expirationTime: null, keys: { p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg" } };

function browser(userAgent: string) {
  Object.defineProperty(navigator, "userAgent", { configurable: true, get: () => userAgent });
  const registration = { active: { postMessage }, pushManager: { getSubscription: async () => null, subscribe } };
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { register, ready: Promise.resolve(registration), getRegistration: async () => registration } });
  vi.stubGlobal("PushManager", function PushManager() {});
  vi.stubGlobal("Notification", Object.assign(function Notification() {}, { permission: "default", requestPermission }));
}

describe("Settings → Notifications", () => {
  beforeEach(() => {
    installScriptedFetch(script);
    saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-of-this-sign-in");
    requestPermission.mockReset();
    subscribe.mockReset();
    register.mockReset();
    postMessage.mockReset();
    browser("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36");
  });
  afterEach(() => {
    cleanup();
    clearSession();
    vi.unstubAllGlobals();
  });

  it("asks the browser nothing on load; the tap on Turn on asks, subscribes with our key and registers this device", async () => {
    script.answers["GET /api/notifications"] = [json(200, view()), json(200, view([DEVICE]))];
    script.answers["POST /api/notifications/devices"] = [json(201, DEVICE)];
    requestPermission.mockResolvedValue("granted");
    subscribe.mockResolvedValue({ toJSON: () => SUBSCRIPTION_JSON });
    renderWithQuery(<NotificationsSection />);

    expect(await screen.findByText("Push is off for this device.")).toBeTruthy();
    expect(requestPermission).not.toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Turn on for this device" }));
    expect(await screen.findByText("Push is on for this device.")).toBeTruthy();
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
    const options = subscribe.mock.calls[0]![0] as { userVisibleOnly: boolean; applicationServerKey: Uint8Array };
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(script.bodies).toContainEqual(SUBSCRIPTION_JSON);
    expect(postMessage).toHaveBeenCalledWith({ type: "remember-subscription", subscription: { endpoint: SUBSCRIPTION_JSON.endpoint, auth: SUBSCRIPTION_JSON.keys.auth, applicationServerKey: KEY } });
    const devices = screen.getByRole("list", { name: "Devices that receive pushes" });
    expect(within(devices).getByText("Chrome on Android")).toBeTruthy();
    expect(within(devices).getByText("This device")).toBeTruthy();
    // An open tab's code alerts now leave the notification to the push.
    await waitFor(() => expect(pushOnForThisSignIn()).toBe(true));
  });

  it("says how to unblock when the browser refuses, and registers nothing", async () => {
    script.answers["GET /api/notifications"] = [json(200, view()), json(200, view())];
    requestPermission.mockResolvedValue("denied");
    renderWithQuery(<NotificationsSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Turn on for this device" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Notifications are blocked for this site in this browser");
    expect(subscribe).not.toHaveBeenCalled();
    expect(script.calls).not.toContain("POST /api/notifications/devices");
  });

  it("removes another device (the server forgets it), and this device's Remove also unsubscribes this browser", async () => {
    const unsubscribe = vi.fn(async () => true);
    const registration = { active: { postMessage }, pushManager: { getSubscription: async () => ({ unsubscribe }), subscribe } };
    Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { register, ready: Promise.resolve(registration), getRegistration: async () => registration } });
    const LAPTOP = { ...DEVICE, id: "psub_2", label: "Firefox on Windows", push_service: "updates.push.services.mozilla.com", this_session: false };
    script.answers["GET /api/notifications"] = [json(200, view([DEVICE, LAPTOP])), json(200, view([DEVICE])), json(200, view())];
    script.answers["DELETE /api/notifications/devices/psub_2"] = [json(200, { data: [DEVICE] })];
    script.answers["DELETE /api/notifications/devices/psub_1"] = [json(200, { data: [] })];
    renderWithQuery(<NotificationsSection />);

    fireEvent.click(await screen.findByRole("button", { name: "Remove Firefox on Windows" }));
    await waitFor(() => expect(script.calls).toContain("DELETE /api/notifications/devices/psub_2"));
    await waitFor(() => expect(screen.queryByText("Firefox on Windows")).toBeNull());
    // Another device's removal leaves this browser's subscription alone.
    expect(unsubscribe).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Remove Chrome on Android" }));
    expect(await screen.findByText("Push is off for this device.")).toBeTruthy();
    expect(script.calls).toContain("DELETE /api/notifications/devices/psub_1");
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith({ type: "forget-subscription" });
    expect(screen.queryByRole("list", { name: "Devices that receive pushes" })).toBeNull();
  });

  it("saves each kind and the lock-screen choice as it is changed", async () => {
    // Each save's answer is the new view, and the screen reads it again after.
    script.answers["GET /api/notifications"] = [json(200, view()), json(200, view()), json(200, view())];
    script.answers["PUT /api/notifications/preferences"] = [json(200, view()), json(200, { ...view(), push: { ...view().push, hide_code: true } })];
    renderWithQuery(<NotificationsSection />);
    fireEvent.click(await screen.findByLabelText("Money added to your wallet"));
    fireEvent.click(screen.getByLabelText(/Hide the code on the lock screen/));
    await waitFor(() => expect(script.bodies).toEqual([{ kinds: { "payment.credited": false } }, { hide_code: true }]));
  });

  it("with a Telegram chat connected, turning its forwarding off saves telegram: false and keeps e-mail and webhook as they were", async () => {
    script.answers["GET /api/notifications"] = [json(200, view()), json(200, view())];
    script.answers["GET /api/telegram"] = [json(200, { bot_username: "vnum_bot", linked: true, chat_name: "@ada", linked_at: "2026-11-29T09:00:00.000Z" })];
    script.answers["PUT /api/notifications/forwarding"] = [json(200, { ...view(), forwarding: { ...view().forwarding, telegram: false } })];
    renderWithQuery(<NotificationsSection />);
    const box = await screen.findByLabelText("Send each message and reminder to my Telegram chat (@ada)");
    expect((box as HTMLInputElement).checked).toBe(true);
    fireEvent.click(box);
    await waitFor(() => expect(script.bodies).toEqual([{ email: false, webhook_url: null, telegram: false }]));
  });

  it("without a Telegram chat connected, points to Settings → Telegram instead of a checkbox", async () => {
    script.answers["GET /api/notifications"] = [json(200, view())];
    script.answers["GET /api/telegram"] = [json(200, { bot_username: "vnum_bot", linked: false, chat_name: null, linked_at: null })];
    renderWithQuery(<NotificationsSection />);
    expect(await screen.findByText(/connect our bot under Settings → Telegram/)).toBeTruthy();
    expect(screen.queryByLabelText(/to my Telegram chat/)).toBeNull();
  });

  it("on an iPhone outside the Home Screen app, says push needs the app on the Home Screen and how to add it", async () => {
    browser("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1");
    script.answers["GET /api/notifications"] = [json(200, view())];
    renderWithQuery(<NotificationsSection />);
    const note = await screen.findByTestId("ios-home-screen-note");
    expect(note.textContent).toContain("iOS 16.4 or later");
    expect(note.textContent).toContain("Add to Home Screen");
    expect(screen.queryByRole("button", { name: "Turn on for this device" })).toBeNull();
  });
});
