import { queryOptions } from "@tanstack/react-query";
import { api, json } from "./client";
import * as queryKeys from "./keys";

/**
 * GET /api/status (issue 32): the public status page's figures, sent without a token so every visitor shares the edge's
 * cached copy (the server caches it for 60 s; reading it more often would only show the same answer).
 */
export const STATUS_REFRESH_MS = 60_000;

export const getPublicStatus = () => api.status.$get().then(json);

export const publicStatusQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.publicStatus, queryFn: getPublicStatus, staleTime: STATUS_REFRESH_MS, refetchInterval: STATUS_REFRESH_MS });
