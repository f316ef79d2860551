import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { loadPendingRequest, savePendingRequest } from "./pending-request";
import { CANCEL_FLAG_MS, useActiveSmsRequest } from "./use-active-sms-request";

// The server, as far as this hook sees it: a status answer and a cancel answer per test.
let statusBody: unknown = { state: "waiting", phase: "waiting", sms: null };
let cancelStatus = 200;
const calls: string[] = [];
/** Status answers for other orders than the restored one (a chain's next number). */
let statusById: Record<string, unknown> = {};

function fakeFetch(input: RequestInfo | URL, init?: RequestInit) {
  const url = String(input);
  calls.push(`${init?.method ?? "GET"} ${url}`);
  const other = Object.entries(statusById).find(([id]) => url.endsWith(`/api/sms/status/${id}`));
  if (other) return Promise.resolve(new Response(JSON.stringify(other[1]), { status: 200 }));
  if (url.includes("/api/sms/status/")) return Promise.resolve(new Response(JSON.stringify(statusBody), { status: 200 }));
  if (url.includes("/api/sms/cancel")) {
    const body = cancelStatus === 200 ? { status: "cancelled", refunded: true } : { code: "INVALID_STATE", message: "A code already came.", error: "A code already came." };
    return Promise.resolve(new Response(JSON.stringify(body), { status: cancelStatus }));
  }
  return Promise.resolve(new Response("{}", { status: 200 }));
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

beforeEach(() => {
  statusBody = { state: "waiting", phase: "waiting", sms: null };
  cancelStatus = 200;
  statusById = {};
  calls.length = 0;
  vi.stubGlobal("fetch", vi.fn(fakeFetch));
  // A signed-in customer (signed-in calls without a token never reach the network).
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
  savePendingRequest({ request_id: "ord_9", number: "+1555", purchased_number: "+1555", cost: 1200, sms: null, createdAt: Date.now() });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("useActiveSmsRequest", () => {
  it("restores a pending request after a reload and opens its dialog, asking the server for its state", async () => {
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    expect(result.current.shown).toMatchObject({ requestId: "ord_9", number: "+1555", phase: "waiting" });
    await waitFor(() => expect(result.current.dialogOpen).toBe(true));
    await waitFor(() => expect(calls).toContain("GET /api/sms/status/ord_9"));
  });

  it("shows a code the server has, and keeps it in the cached request", async () => {
    statusBody = { state: "used", phase: "received", sms: "482913", sms_code: "482913" };
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    await waitFor(() => expect(result.current.shown?.phase).toBe("received"));
    expect(result.current.shown?.code).toBe("482913");
    expect(loadPendingRequest()?.sms).toBe("482913");
  });

  it("cancels: the flag blocks dismissing, the cached request goes, and the flag resets after 2 s", async () => {
    // Fake clocks that still move on their own, so waitFor keeps working while the 2 s reset is driven by hand.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout"] });
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    await waitFor(() => expect(result.current.dialogOpen).toBe(true));
    act(() => result.current.cancel());
    expect(result.current.cancelling).toBe(true);
    act(() => result.current.dismiss());
    expect(loadPendingRequest()).not.toBeNull();
    await waitFor(() => expect(calls).toContain("POST /api/sms/cancel"));
    await waitFor(() => expect(loadPendingRequest()).toBeNull());
    expect(result.current.dialogOpen).toBe(false);
    act(() => vi.advanceTimersByTime(CANCEL_FLAG_MS));
    expect(result.current.cancelling).toBe(false);
  });

  it("'try another number': while the next number is bought it stays waiting, then follows it in the same dialog", async () => {
    const chain = { id: "ord_9", step: 1, max_routes: 3, cap: 200, status: "active", next_request_id: null, moving_on: true };
    statusBody = { state: "timeout", phase: "waiting", sms: "SMS polling timed out, code not sent.", number: "+1555", chain };
    statusById = { ord_10: { state: "waiting", phase: "waiting", sms: null, number: "+2347000000001", chain: { ...chain, step: 2, moving_on: false } } };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const own = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper: own });
    await waitFor(() => expect(result.current.route).toEqual({ step: 1, max: 3, switching: true }));
    expect(result.current.shown?.phase).toBe("waiting");

    // The server names the next number (the sms.ended push refreshes the order): the dialog follows it, still waiting.
    statusBody = { ...(statusBody as object), chain: { ...chain, moving_on: false, next_request_id: "ord_10" } };
    await act(() => client.invalidateQueries({ queryKey: ["sms-order", "ord_9"] }));
    await waitFor(() => expect(loadPendingRequest()?.request_id).toBe("ord_10"));
    await waitFor(() => expect(result.current.shown).toMatchObject({ requestId: "ord_10", number: "+2347000000001", phase: "waiting" }));
    expect(result.current.route).toEqual({ step: 2, max: 3, switching: false });
    expect(result.current.dialogOpen).toBe(true);
  });

  it("keeps the request when the cancel is refused (the code came first)", async () => {
    cancelStatus = 409;
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    await waitFor(() => expect(result.current.dialogOpen).toBe(true));
    act(() => result.current.cancel());
    await waitFor(() => expect(calls).toContain("POST /api/sms/cancel"));
    await waitFor(() => expect(calls.filter((c) => c.includes("/status/")).length).toBeGreaterThan(1));
    expect(loadPendingRequest()?.request_id).toBe("ord_9");
  });

  it("buying another number while one waits keeps the first as its own entry; Done on the new one shows the first again (issue 28)", async () => {
    statusById = { ord_10: { state: "waiting", sms: null } };
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    await waitFor(() => expect(calls).toContain("GET /api/sms/status/ord_9"));
    await waitFor(() => expect(result.current.shown?.phase).toBe("waiting"));
    act(() => result.current.start({ request_id: "ord_10", number: "+1666", purchased_number: "+1666", cost: 1200, sms: null, createdAt: Date.now() }));
    expect(loadPendingRequest()).toMatchObject({ request_id: "ord_10", others: [{ request_id: "ord_9", number: "+1555" }] });
    expect(result.current.dialogOpen).toBe(true);

    // Done on the new number while the first still waits: the first becomes the dialog's number again.
    await waitFor(() => expect(calls).toContain("GET /api/sms/status/ord_10"));
    act(() => result.current.dismiss());
    expect(result.current.dialogOpen).toBe(true);
    expect(loadPendingRequest()).toMatchObject({ request_id: "ord_9" });
    expect(loadPendingRequest()?.others).toBeUndefined();
  });

  it("a number that already ended is not carried into the next purchase's dialog", async () => {
    statusBody = { state: "timeout", phase: "timeout", sms: "SMS polling timed out, code not sent." };
    const { result } = renderHook(() => useActiveSmsRequest(), { wrapper });
    await waitFor(() => expect(result.current.shown?.phase).toBe("timeout"));
    act(() => result.current.start({ request_id: "ord_11", number: "+1777", purchased_number: "+1777", cost: 1200, sms: null, createdAt: Date.now() }));
    expect(loadPendingRequest()).toMatchObject({ request_id: "ord_11" });
    expect(loadPendingRequest()?.others).toBeUndefined();
  });
});
