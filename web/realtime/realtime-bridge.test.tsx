import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSession, saveSession } from "../lib/session";
import type { RealtimeOptions, RealtimeTokenResponse } from "./connection";
import { RealtimeBridge } from "./realtime-bridge";
import { isRealtimeConnected, LIVE_FALLBACK_MS, pollEvery } from "./status";

vi.mock("../lib/toast", async (original) => ({ ...(await original<typeof import("../lib/toast")>()), toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

/** A stand-in for the browser's WebSocket: records each socket the client opens and lets the test play the server. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readyState = 0;
  binaryType = "blob";
  closedWith: number | null = null;
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send() {}
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  serverSends(message: unknown) {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(message) }));
  }
  serverDrops() {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code: 1006, reason: "gone", wasClean: false }));
  }
}

let tokens = 0;
const fetchToken = vi.fn(async (): Promise<RealtimeTokenResponse> => {
  tokens += 1;
  return { token: `rt-${tokens}`, url: "/parties/notification-room/user-1" };
});
const options: RealtimeOptions = { WebSocket: FakeSocket, fetchToken, minReconnectionDelay: 1, maxReconnectionDelay: 5 };

let queryClient: QueryClient;
function mount() {
  return render(
    <QueryClientProvider client={queryClient}>
      <RealtimeBridge options={options} />
    </QueryClientProvider>,
  );
}
const latestSocket = () => FakeSocket.all[FakeSocket.all.length - 1];
const isStale = (key: string[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;

beforeEach(() => {
  FakeSocket.all = [];
  tokens = 0;
  fetchToken.mockClear();
  queryClient = new QueryClient();
  queryClient.setQueryData(["balance"], { balance: 0 });
  queryClient.setQueryData(["ads"], []);
  saveSession({ userId: "user-1", username: "ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "api-token");
});
afterEach(() => {
  cleanup();
  clearSession();
});

describe("<RealtimeBridge />", () => {
  it("opens one socket to the user's room with a fresh realtime token, and stretches polling while it is up", async () => {
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(latestSocket().url).toBe(`ws://${window.location.host}/parties/notification-room/user-1?token=rt-1`);
    expect(isRealtimeConnected()).toBe(false);
    expect(pollEvery(5000)).toBe(5000);

    act(() => latestSocket().serverOpens());
    expect(isRealtimeConnected()).toBe(true);
    expect(pollEvery(5000)).toBe(LIVE_FALLBACK_MS);
    expect(document.documentElement.dataset.realtime).toBe("connected");
  });

  it("a pushed payment refreshes the balance and leaves unrelated queries alone", async () => {
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => latestSocket().serverOpens());
    act(() => latestSocket().serverSends({ kind: "payment.credited", paymentId: "ref-1", amount: 5000, balance: 5000 }));
    expect(isStale(["balance"])).toBe(true);
    expect(isStale(["ads"])).toBe(false);
  });

  it("when the socket drops: the spec's polling returns, the live queries refetch, and it reconnects with a new token", async () => {
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => latestSocket().serverOpens());

    act(() => latestSocket().serverDrops());
    expect(isRealtimeConnected()).toBe(false);
    expect(pollEvery(5000)).toBe(5000);
    expect(isStale(["balance"])).toBe(true);
    expect(isStale(["ads"])).toBe(false);

    await waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(latestSocket().url).toMatch(/\?token=rt-2$/);
    act(() => latestSocket().serverOpens());
    expect(isRealtimeConnected()).toBe(true);
  });

  it("logout closes the socket and opens no other", async () => {
    mount();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = latestSocket();
    act(() => socket.serverOpens());

    act(() => clearSession());
    expect(socket.closedWith).toBe(1000);
    expect(isRealtimeConnected()).toBe(false);
    expect(document.documentElement.dataset.realtime).toBe("offline");
    // A closed connection never dials again: give a reconnect timer (at most 5 ms here) every chance to fire.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(FakeSocket.all).toHaveLength(1);
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it("opens nothing for a signed-out visitor", () => {
    clearSession();
    mount();
    expect(FakeSocket.all).toHaveLength(0);
    expect(fetchToken).not.toHaveBeenCalled();
  });
});
