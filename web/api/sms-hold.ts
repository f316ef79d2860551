import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, json } from "./client";
import * as queryKeys from "./keys";

/** GET /api/sms/hold-time: how long a bought number waits for its code before the refund (the operator's setting). */
export const smsHoldTimeQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.smsHoldTime, queryFn: () => api.sms["hold-time"].$get().then(json), staleTime: 5 * 60_000 });

export const useSmsHoldTime = () => useQuery(smsHoldTimeQueryOptions());

/** "1 minute 30 seconds", "5 minutes", "45 seconds": the hold time in words. */
export function holdTimeWords(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const parts = [
    minutes > 0 ? `${minutes} ${minutes === 1 ? "minute" : "minutes"}` : "",
    rest > 0 || minutes === 0 ? `${rest} ${rest === 1 ? "second" : "seconds"}` : "",
  ].filter(Boolean);
  return parts.join(" ");
}

/** "1:05": a countdown's text, never below 0:00. */
export function countdownText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
