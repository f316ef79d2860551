import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  clearPendingRequest,
  loadPendingRequest,
  PENDING_MAX_AGE_MS,
  PENDING_SMS_KEY,
  savePendingRequest,
  updatePendingOrder,
  usePendingRequest,
  type PendingSmsRequest,
} from "./pending-request";

const request = (over: Partial<PendingSmsRequest> = {}): PendingSmsRequest => ({
  request_id: "ord_1",
  debitRef: "buy:ord_1",
  number: "+15550001111",
  purchased_number: "+15550001111",
  cost: 1234.5,
  sms: null,
  createdAt: Date.now(),
  ...over,
});

afterEach(() => localStorage.clear());

describe("pending SMS request", () => {
  it("restores what was saved (a reload reads it back)", () => {
    savePendingRequest(request());
    expect(loadPendingRequest()).toMatchObject({ request_id: "ord_1", purchased_number: "+15550001111", sms: null });
  });

  it("drops garbage and stale entries", () => {
    localStorage.setItem(PENDING_SMS_KEY, "{not json");
    expect(loadPendingRequest()).toBeNull();
    localStorage.setItem(PENDING_SMS_KEY, JSON.stringify({ number: "x" }));
    expect(loadPendingRequest()).toBeNull();
    // A phase this version does not know is dropped (the server's next answer says where the order stands).
    localStorage.setItem(PENDING_SMS_KEY, JSON.stringify({ ...request(), phase: "done-ish" }));
    expect(loadPendingRequest()?.phase).toBeUndefined();
    savePendingRequest(request({ createdAt: Date.now() - PENDING_MAX_AGE_MS - 1 }));
    expect(loadPendingRequest()).toBeNull();
    expect(localStorage.getItem(PENDING_SMS_KEY)).toBeNull();
  });

  it("records the server's phase and code, and clears only its own request", () => {
    savePendingRequest(request());
    updatePendingOrder("ord_1", { phase: "received", sms: "123456" });
    expect(loadPendingRequest()).toMatchObject({ sms: "123456", phase: "received" });
    updatePendingOrder("another", { phase: "timeout", sms: null });
    expect(loadPendingRequest()).toMatchObject({ sms: "123456", phase: "received" });
    clearPendingRequest("another");
    expect(loadPendingRequest()).not.toBeNull();
    clearPendingRequest("ord_1");
    expect(loadPendingRequest()).toBeNull();
  });

  it("follows a second tab through the storage event", () => {
    const { result } = renderHook(() => usePendingRequest());
    expect(result.current).toBeNull();
    act(() => {
      // Another tab writes localStorage directly; this tab only hears the storage event.
      localStorage.setItem(PENDING_SMS_KEY, JSON.stringify(request({ request_id: "ord_2" })));
      window.dispatchEvent(new StorageEvent("storage", { key: PENDING_SMS_KEY }));
    });
    expect(result.current?.request_id).toBe("ord_2");
    act(() => clearPendingRequest());
    expect(result.current).toBeNull();
  });
});

describe("pending request: the other numbers of a several-at-once purchase", () => {
  it("keeps up to 4 others with their ids and drops malformed ones", () => {
    localStorage.setItem(
      PENDING_SMS_KEY,
      JSON.stringify({ request_id: "a", number: "1", cost: 1, sms: null, createdAt: Date.now(), others: [{ request_id: "b", number: "2" }, { number: "3" }, null] }),
    );
    expect(loadPendingRequest()?.others).toEqual([{ request_id: "b", number: "2" }]);
  });
});
