import { useSyncExternalStore } from "react";

// Whether this tab's realtime socket is up. Screens poll at the spec's intervals only while it is down.
let connected = false;
const listeners = new Set<() => void>();

export function setRealtimeConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  // Observable from outside React (e2e journeys and bench/ wait for the socket before they measure anything).
  if (typeof document !== "undefined") document.documentElement.dataset.realtime = value ? "connected" : "offline";
  for (const l of listeners) l();
}

export function isRealtimeConnected(): boolean {
  return connected;
}

export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => connected,
    () => false,
  );
}

/** While the socket is up, a long fallback interval replaces the spec's polling (pushes invalidate the queries). */
export const LIVE_FALLBACK_MS = 5 * 60_000;

/** refetchInterval for a query the spec polls every `specMs`: `refetchInterval: () => pollEvery(5000)`. */
export function pollEvery(specMs: number): number {
  return connected ? Math.max(specMs, LIVE_FALLBACK_MS) : specMs;
}
