import { createSyncStoragePersister } from "@tanstack/query-sync-storage-persister";
import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api/client";

// The spec's general cache: stale 5 minutes, kept 24 h, persisted in session storage.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60_000,
      gcTime: 24 * 3600_000,
      // A 4xx will not change by retrying; a network blip or a 5xx might.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

export const persister = createSyncStoragePersister({ storage: typeof window !== "undefined" ? window.sessionStorage : undefined });
