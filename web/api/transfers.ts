import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { StaticAccountRequest } from "../../schema/transfers";
import { json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// Funding by bank transfer (issue 31). The transfer's status is keyed as its payment's invoice (queryKeys.invoice(ref)):
// the realtime payment.credited / payment.failed messages name that payment, so the card refreshes the moment the
// server credits it or holds it for review, with no Verify button and no polling while the socket is up.

/** POST /api/transfers: a dynamic account for `amount` naira. */
export const startTransfer = (amount: number) => signedIn.transfers.$post({ json: { amount } }).then(json);

export const useStartTransfer = () => useMutation({ mutationFn: (amount: number) => startTransfer(amount) });

/** GET /api/transfers/:ref */
export const getTransfer = (ref: string) => signedIn.transfers[":ref"].$get({ param: pathParams({ ref }) }).then(json);

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
export const getActiveTransfer = () => signedIn.transfers.active.$get().then(json).then((r) => r.data);

/** GET/POST /api/transfers/static-account: the customer's permanent account number. */
export const staticAccountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.staticAccount,
    queryFn: () => signedIn.transfers["static-account"].$get().then(json).then((r) => r.data),
    staleTime: 5 * 60_000,
  });

export const useStaticAccount = () => useQuery(staticAccountQueryOptions());

export const openStaticAccount = (input: StaticAccountRequest) =>
  signedIn.transfers["static-account"].$post({ json: input }).then(json).then((r) => r.data);
