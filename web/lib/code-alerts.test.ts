import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleRealtimeFrame } from "../realtime/messages";
import {
  askCodeNotificationPermission,
  codeSoundEnabled,
  setCodeSoundEnabled,
  unseenCodeCount,
} from "./code-alerts";
import { rememberPushChoices } from "./push-flags";

vi.mock("./toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

/** A stand-in for the browser's Notification: records what was shown and what permission was asked. */
class FakeNotification {
  static permission: NotificationPermission = "default";
  static shown: { title: string; options?: NotificationOptions }[] = [];
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = "granted";
    return "granted" as NotificationPermission;
  });
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
  close() {}
}

let visibility: DocumentVisibilityState = "visible";
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event("visibilitychange"));
}

const frame = (message: unknown) => JSON.stringify(message);
/** The socket handler loads code-alerts on the first code (a dynamic import): wait for it like the browser would. */
async function push(data: string) {
  handleRealtimeFrame(qc, data);
  await vi.dynamicImportSettled();
}
const code = (orderId: string, value: string) => frame({ kind: "sms.code", orderId, code: value, number: "15551234567" });
const rentalSms = frame({ kind: "rental.sms", rentalId: "r1", sender: "WhatsApp", text: "Your WhatsApp code is 482913", code: "482913" });

let oscillators = 0;
class FakeAudioContext {
  currentTime = 0;
  destination = {};
  createGain() {
    return { connect() {}, gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } };
  }
  createOscillator() {
    oscillators += 1;
    return { frequency: { value: 0 }, connect() {}, start() {}, stop() {} };
  }
  close() {
    return Promise.resolve();
  }
}

let qc: QueryClient;
beforeEach(() => {
  qc = new QueryClient();
  FakeNotification.permission = "default";
  FakeNotification.shown = [];
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal("Notification", FakeNotification);
  vi.stubGlobal("AudioContext", FakeAudioContext);
  oscillators = 0;
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
  // Each test starts from a visible tab, reached the customer's way: coming back to the tab clears the count.
  setVisibility("visible");
  document.title = "Receive SMS — VirtualNum";
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("never miss a code", () => {
  it("does nothing while the tab is visible: the dialog shows the code", async () => {
    FakeNotification.permission = "granted";
    await push(code("o1", "123456"));
    expect(FakeNotification.shown).toEqual([]);
    expect(document.title).toBe("Receive SMS — VirtualNum");
  });

  it("in a hidden tab: a notification per code (with permission), the title counts them, and coming back clears it", async () => {
    FakeNotification.permission = "granted";
    setVisibility("hidden");
    await push(code("o1", "123456"));
    await push(rentalSms);
    expect(FakeNotification.shown.map((n) => [n.title, n.options?.body, n.options?.tag])).toEqual([
      // Tagged by order, as a Web Push about the same order is (issue 47): one replaces the other on the device.
      ["Code 123456", "Received on +15551234567", "sms:o1"],
      ["Code 482913 from WhatsApp", "Your WhatsApp code is 482913", "rental:r1"],
    ]);
    expect(document.title).toBe("(2) Receive SMS — VirtualNum");
    expect(unseenCodeCount()).toBe(2);
    setVisibility("visible");
    expect(document.title).toBe("Receive SMS — VirtualNum");
    expect(unseenCodeCount()).toBe(0);
  });

  it("without permission shows no notification but still counts in the title; other messages never alert", async () => {
    setVisibility("hidden");
    await push(frame({ kind: "balance.changed", balance: 10 }));
    expect(document.title).toBe("Receive SMS — VirtualNum");
    await push(code("o1", "123456"));
    expect(FakeNotification.shown).toEqual([]);
    expect(document.title).toBe("(1) Receive SMS — VirtualNum");
  });

  it("chimes only when the customer turned the sound on", async () => {
    setVisibility("hidden");
    await push(code("o1", "111111"));
    expect(oscillators).toBe(0);
    setCodeSoundEnabled(true);
    expect(codeSoundEnabled()).toBe(true);
    await push(code("o2", "222222"));
    expect(oscillators).toBe(2);
    setCodeSoundEnabled(false);
    await push(code("o3", "333333"));
    expect(oscillators).toBe(2);
  });

  it("leaves the notification to Web Push when push is on for this sign-in, and keeps codes off the screen when asked (issue 47)", async () => {
    FakeNotification.permission = "granted";
    localStorage.setItem("authToken", "header.payload.signature-of-this-sign-in");
    setVisibility("hidden");
    rememberPushChoices(false, true);
    await push(code("o1", "123456"));
    expect(FakeNotification.shown.map((n) => [n.title, n.options?.body])).toEqual([["Your code arrived", "A code came for +15551234567. Open the app to see it."]]);
    rememberPushChoices(true, false);
    await push(code("o2", "654321"));
    expect(FakeNotification.shown).toHaveLength(1);
    expect(document.title).toBe("(2) Receive SMS — VirtualNum");
    // Another sign-in on this browser has not turned push on: the tab shows its own again.
    localStorage.setItem("authToken", "header.payload.signature-of-another-sign-in");
    await push(code("o3", "777777"));
    expect(FakeNotification.shown.map((n) => n.title)).toEqual(["Your code arrived", "Code 777777"]);
  });

  it("asks permission only while unanswered, and never again after a denial", async () => {
    expect(await askCodeNotificationPermission()).toBe("granted");
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(await askCodeNotificationPermission()).toBe("granted");
    FakeNotification.permission = "denied";
    expect(await askCodeNotificationPermission()).toBe("denied");
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
  });
});
