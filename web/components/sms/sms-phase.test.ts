import { describe, expect, it } from "vitest";
import { SMS_ERROR_TEXT, SMS_TIMEOUT_TEXT } from "../../../schema/constants";
import { movingOn, smsCode, smsPhase } from "./sms-phase";

describe("smsPhase", () => {
  it("waits while the server has no code", () => {
    expect(smsPhase({ state: "waiting", sms: null })).toBe("waiting");
    expect(smsPhase(undefined, null)).toBe("waiting");
  });

  it("shows the code once it came, from the server or the cache", () => {
    expect(smsPhase({ state: "used", sms: "123456" })).toBe("received");
    expect(smsCode({ state: "used", sms: "123456", sms_code: "123456" })).toBe("123456");
    expect(smsPhase(undefined, "654321")).toBe("received");
    expect(smsCode(undefined, "654321")).toBe("654321");
  });

  it("reads the two failure texts and statuses", () => {
    expect(smsPhase({ state: "timeout", sms: SMS_TIMEOUT_TEXT })).toBe("timeout");
    expect(smsPhase({ state: "error", sms: SMS_ERROR_TEXT })).toBe("error");
    expect(smsPhase(undefined, SMS_TIMEOUT_TEXT)).toBe("timeout");
    expect(smsPhase({ state: "timeout", sms: null })).toBe("timeout");
    expect(smsCode({ state: "timeout", sms: SMS_TIMEOUT_TEXT })).toBeNull();
  });

  it("reports a cancel, but a code that came during the cancel wins", () => {
    expect(smsPhase({ state: "cancelled", sms: null })).toBe("cancelled");
    expect(smsPhase({ state: "used", sms: "777777" })).toBe("received");
  });

  it("a 'try another number' route that gave no code is still waiting for the customer until the chain ends", () => {
    const chain = { id: "c1", step: 1, max_routes: 3, cap: 200, status: "active" as const, next_request_id: null, moving_on: true };
    expect(smsPhase({ state: "timeout", sms: SMS_TIMEOUT_TEXT, chain })).toBe("waiting");
    expect(movingOn({ state: "timeout", sms: SMS_TIMEOUT_TEXT, chain: { ...chain, moving_on: false, next_request_id: "o2" } })).toBe(true);
    // No route left: the timeout is the end, shown as such.
    expect(smsPhase({ state: "timeout", sms: SMS_TIMEOUT_TEXT, chain: { ...chain, status: "ended", moving_on: false } })).toBe("timeout");
    // A code on the live route, or the customer's cancel, is never hidden.
    expect(smsPhase({ state: "used", sms: "123456", chain })).toBe("received");
    expect(smsPhase({ state: "cancelled", sms: null, chain })).toBe("cancelled");
  });

  it("lets the server's answer override a stale cached value", () => {
    expect(smsPhase({ state: "waiting", sms: null }, "111111")).toBe("waiting");
  });
});
