import { queryOptions } from "@tanstack/react-query";
import { api, json } from "./client";
import * as queryKeys from "./keys";

/**
 * GET /api/status (issue 32): the public status page's figures, sent without a token so every visitor shares the edge's
 * cached copy. Asked every 20 s: with the server's 15 s caches, an incident shows within the minute the console promises
 * (issue 43; worker/services/sms/public-status.ts).
 */
export const STATUS_REFRESH_MS = 20_000;

export const getPublicStatus = () => api.status.$get().then(json);

export const publicStatusQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.publicStatus, queryFn: getPublicStatus, staleTime: STATUS_REFRESH_MS, refetchInterval: STATUS_REFRESH_MS });
