import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { addPendingPayment, readPendingPayments } from "./payment-rules";
import { RETURN_MAX_ATTEMPTS, RETURN_POLL_MS, useCardPaymentReturn } from "./use-card-payment-return";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock("../../lib/toast", async (original) => ({ ...(await original<typeof import("../../lib/toast")>()), toast }));

type Reply = { status: number; body: unknown } | "network-error";

/** Answers POST /api/squad-callback from a script of replies (the last one repeats). */
function scriptServer(replies: Reply[]) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe("/api/squad-callback");
      calls.push(JSON.parse(String(init.body)));
      const reply = replies[Math.min(calls.length - 1, replies.length - 1)];
      if (reply === "network-error") throw new TypeError("fetch failed");
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
  return calls;
}

/** Moves fake time inside act() so the hook's state updates are rendered before the assertions. */
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms).then(() => undefined));

function renderReturn(reference: string) {
  const client = new QueryClient();
  const onFinished = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useCardPaymentReturn(reference, onFinished), { wrapper });
  return { hook, onFinished };
}

describe("card-payment return polling", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
    // A signed-in customer (signed-in calls without a token never reach the network).
    saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
    vi.clearAllMocks();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("asks at once, then every 3 s, and stops on 'success' with the spec's toast", async () => {
    addPendingPayment({ ref: "REF-1", amount: 5000, currency: "NGN", timestamp: Date.now() });
    const pending = { status: 200, body: null };
    const calls = scriptServer([pending, pending, { status: 200, body: { data: "success", message: "Payment confirmed successfully!" } }]);
    const { hook, onFinished } = renderReturn("REF-1");
    expect(hook.result.current).toBe(true);

    await tick(0);
    expect(calls).toEqual([{ transaction_ref: "REF-1" }]);
    await tick(RETURN_POLL_MS);
    expect(calls).toHaveLength(2);
    await tick(RETURN_POLL_MS);
    expect(calls).toHaveLength(3);

    expect(toast.success).toHaveBeenCalledWith("Payment confirmed successfully!", expect.anything());
    // After the toast the hook loads ./fund-return (a real dynamic import, not a timer): on a busy machine it can take
    // longer than the fake ticks above, so wait for it rather than assume it landed.
    await act(() => vi.waitFor(() => expect(onFinished).toHaveBeenCalledOnce()));
    expect(readPendingPayments()).toEqual([]);
    expect(hook.result.current).toBe(false);
    await tick(RETURN_POLL_MS * 5);
    expect(calls).toHaveLength(3);
  });

  it("gives up after 15 attempts with the timeout toast", async () => {
    const calls = scriptServer([{ status: 200, body: null }]);
    const { onFinished } = renderReturn("REF-2");
    await tick(RETURN_POLL_MS * (RETURN_MAX_ATTEMPTS + 5));
    expect(calls).toHaveLength(RETURN_MAX_ATTEMPTS);
    expect(toast.info).toHaveBeenCalledWith("Payment verification timeout. Please check your transaction history.", expect.anything());
    expect(onFinished).toHaveBeenCalledOnce();
  });

  it("keeps trying through request errors, then reports the failure on the last attempt", async () => {
    const calls = scriptServer(["network-error"]);
    renderReturn("REF-3");
    await tick(RETURN_POLL_MS * (RETURN_MAX_ATTEMPTS + 5));
    expect(calls).toHaveLength(RETURN_MAX_ATTEMPTS);
    expect(toast.error).toHaveBeenCalledWith("Failed to confirm payment", expect.anything());
    expect(toast.error).toHaveBeenLastCalledWith("Payment verification failed. Please check your transaction history.", expect.anything());
  });

  it("stops at once on a declined payment or a reference that is not the customer's", async () => {
    const declined = scriptServer([{ status: 200, body: { data: "failed", message: "Transaction not successful" } }]);
    renderReturn("REF-4");
    await tick(RETURN_POLL_MS * 3);
    expect(declined).toHaveLength(1);
    expect(toast.error).toHaveBeenCalledWith("Transaction not successful", expect.anything());
    cleanup();

    const unknown = scriptServer([{ status: 404, body: { code: "NOT_FOUND", message: "Payment not found.", error: "Payment not found." } }]);
    renderReturn("REF-5");
    await tick(RETURN_POLL_MS * 3);
    expect(unknown).toHaveLength(1);
  });

  it("a caller's new callback on re-render neither restarts verification nor is skipped when it finishes", async () => {
    const pending = { status: 200, body: null };
    const calls = scriptServer([pending, { status: 200, body: { data: "success", message: "Payment confirmed successfully!" } }]);
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const first = vi.fn();
    const latest = vi.fn();
    const hook = renderHook(({ onFinished }) => useCardPaymentReturn("REF-6", onFinished), { wrapper, initialProps: { onFinished: first } });
    await tick(0);
    expect(calls).toHaveLength(1);

    hook.rerender({ onFinished: latest });
    await tick(0);
    expect(calls).toHaveLength(1);

    await tick(RETURN_POLL_MS);
    expect(calls).toHaveLength(2);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledOnce();
  });
});
