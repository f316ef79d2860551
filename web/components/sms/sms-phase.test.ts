import { describe, expect, it } from "vitest";
import { SMS_TIMEOUT_TEXT } from "../../../schema/constants";
import { smsCode, smsPhase } from "./sms-phase";

// Issue 29: the screen shows the server's `phase` as sent; it never reads where an order stands from its texts.
describe("smsPhase", () => {
  it("is the server's phase as sent", () => {
    expect(smsPhase({ phase: "waiting", sms: null })).toBe("waiting");
    expect(smsPhase({ phase: "timeout", sms: SMS_TIMEOUT_TEXT })).toBe("timeout");
    expect(smsPhase({ phase: "cancelled", sms: null })).toBe("cancelled");
    // A text that looks like a failure does not decide anything: the phase does.
    expect(smsPhase({ phase: "waiting", sms: SMS_TIMEOUT_TEXT })).toBe("waiting");
  });

  it("before the server answers: the phase this browser last read, else waiting", () => {
    expect(smsPhase(undefined, null)).toBe("waiting");
    expect(smsPhase(undefined, { sms: "654321" })).toBe("waiting");
    expect(smsPhase(undefined, { phase: "received", sms: "654321" })).toBe("received");
    expect(smsPhase(undefined, { phase: "error", sms: null })).toBe("error");
  });

  it("lets the server's answer override a stale cached phase", () => {
    expect(smsPhase({ phase: "waiting", sms: null }, { phase: "received", sms: "111111" })).toBe("waiting");
  });
});

describe("smsCode", () => {
  it("is the code once received, from the server or the cache", () => {
    expect(smsCode({ phase: "received", sms: "123456", sms_code: "123456" })).toBe("123456");
    expect(smsCode({ phase: "received", sms: null, sms_code: "123456" })).toBe("123456");
    expect(smsCode(undefined, { phase: "received", sms: "654321" })).toBe("654321");
  });

  it("is nothing in any other phase", () => {
    expect(smsCode({ phase: "timeout", sms: SMS_TIMEOUT_TEXT })).toBeNull();
    expect(smsCode({ phase: "waiting", sms: null })).toBeNull();
    expect(smsCode(undefined, { sms: "654321" })).toBeNull();
  });
});
