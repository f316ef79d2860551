import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { StaticAccountRequest } from "../../schema/transfers";
import { api } from "./client";
import * as queryKeys from "./keys";

// Funding by bank transfer (issue 31). The transfer's status is keyed as its payment's invoice (queryKeys.invoice(ref)):
// the realtime payment.credited / payment.failed messages name that payment, so the card refreshes the moment the
// server credits it or holds it for review, with no Verify button and no polling while the socket is up.

/** POST /api/transfers: a dynamic account for `amount` naira. */
export const startTransfer = (amount: number) => api("POST /api/transfers", { auth: true, body: { amount } });

export const useStartTransfer = () => useMutation({ mutationFn: (amount: number) => startTransfer(amount) });

/** GET /api/transfers/:ref */
export const getTransfer = (ref: string) => api("GET /api/transfers/:ref", { params: { ref }, auth: true });

/**
 * Socket down or a message lost: a slow re-read while waiting, so the screen still gets there (the realtime push is the
 * fast path; a lost message costs only latency).
 */
const TRANSFER_FALLBACK_POLL_MS = 30_000;

export const transferQueryOptions = (ref: string) =>
  queryOptions({
    queryKey: queryKeys.invoice(ref),
    queryFn: () => getTransfer(ref),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "waiting" && q.state.data.state !== "checking" ? false : TRANSFER_FALLBACK_POLL_MS),
  });

export const useTransfer = (ref: string | null) => useQuery({ ...transferQueryOptions(ref ?? ""), enabled: Boolean(ref) });

/** GET /api/transfers/active: the open transfer to resume after a reload. */
export const getActiveTransfer = () => api("GET /api/transfers/active", { auth: true }).then((r) => r.data);

/** GET/POST /api/transfers/static-account: the customer's permanent account number. */
export const staticAccountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.staticAccount,
    queryFn: () => api("GET /api/transfers/static-account", { auth: true }).then((r) => r.data),
    staleTime: 5 * 60_000,
  });

export const useStaticAccount = () => useQuery(staticAccountQueryOptions());

export const openStaticAccount = (input: StaticAccountRequest) =>
  api("POST /api/transfers/static-account", { auth: true, body: input }).then((r) => r.data);
