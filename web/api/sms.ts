import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { pollEvery } from "../realtime/status";
import type { SmsChainState, SmsCompareResponse, SmsFavourite, SmsFavouritesResponse } from "../../schema/sms";
import { apiFetch } from "./client";
import { invalidateMoney } from "./wallet";

/** Receive SMS (docs/api.md "Receive SMS"). The server computes every price; the client only shows `price`. */

export type SmsProvider = "Swift" | "Dynamic";

export const SMS_PROVIDERS: { value: SmsProvider; label: string }[] = [
  { value: "Swift", label: "Swift SMS" },
  { value: "Dynamic", label: "Dynamic SMS" },
];

export type SmsCountry = { id: string | number; title: string };

export type SmsServicePrice = {
  country_id: string | number;
  application_id: string | number;
  application: string;
  /** The upstream cost in US cents (the spec's "minor units"); the screen shows `price`, the server's own figure. */
  cost: number;
  /** Stock. */
  count: number;
  /** The same price in naira: what the screen shows. */
  price: number;
};

export type BuyNumberRequest = {
  provider: SmsProvider;
  country: string;
  service: string;
  /** The price shown (naira): the server refuses a higher one with 409. */
  price?: number;
  /** The customer's ceiling (naira): never charged above it. */
  max_price?: number;
  /** "If no code comes, try another number": the most (naira) the next route may cost. */
  next_route?: { cap: number };
};

export type BuyNumberResponse = {
  phone: { request_id: string | number; number: string; error_msg?: undefined } | { error_msg: string; request_id?: undefined };
  table?: { purchased_number: string; sms: string | null; reference_code?: string };
  debitRef?: string;
  /** Naira charged; when less than the price sent, shown_price and message say so. */
  price?: number;
  shown_price?: number;
  message?: string;
};

export type SmsStatus = "waiting" | "used" | "timeout" | "error" | "cancelled" | "reject" | "failed" | (string & {});

export type SmsStatusResponse = {
  status: SmsStatus;
  number?: string | null;
  sms: string | null;
  sms_code?: string | null;
  /** Every code received, oldest first (several after "Get another code"). */
  codes?: string[];
  waiting_for_another_code?: boolean;
  can_request_another_code?: boolean;
  /** What "Get another code" costs in naira (0: free), said before the click; null when the provider has none. */
  another_code_price?: number | null;
  /** A "next route" purchase: where this route stands in its chain (the dialog follows next_request_id). */
  chain?: SmsChainState | null;
};

export type BuyNumbersResponse = {
  orders: { phone: { request_id: string; number: string }; debitRef: string; price: number }[];
  requested: number;
  error: { code: string; message: string } | null;
};

/** The two failure texts the server writes into `sms` (spec: Cached pending SMS request). */
export const SMS_TIMEOUT_TEXT = "SMS polling timed out, code not sent.";
export const SMS_ERROR_TEXT = "Error polling SMS";

/** Spec section 9: SMS polling every 6000 ms. */
export const SMS_POLL_MS = 6000;

export const getSmsCountries = (provider: SmsProvider) =>
  apiFetch<SmsCountry[] | Record<string, SmsCountry>>(`/api/sms/countries?provider=${encodeURIComponent(provider)}`).then(
    (data) => (Array.isArray(data) ? data : Object.values(data ?? {})),
  );

export const getSmsPrices = (provider: SmsProvider, countryId: string) =>
  apiFetch<Record<string, SmsServicePrice>>(
    `/api/sms/price?id=${encodeURIComponent(countryId)}&provider=${encodeURIComponent(provider)}`,
    // Signed in: the server prices for this customer's discount tier (the same price it will charge).
    { auth: true },
  ).then((data) => Object.values(data ?? {}));

export const buyNumber = (body: BuyNumberRequest) =>
  apiFetch<BuyNumberResponse>("/api/sms/get-number", { method: "POST", body, auth: true });

/** Several numbers (2-5) for one service, each its own order. */
export const buyNumbers = (body: BuyNumberRequest & { quantity: number }) =>
  apiFetch<BuyNumbersResponse>("/api/sms/get-numbers", { method: "POST", body, auth: true });

export const requestAnotherSmsCode = (requestId: string) =>
  apiFetch<{ request_id: string; waiting_for_another_code: boolean; codes: string[] }>("/api/sms/another-code", {
    method: "POST",
    body: { request_id: requestId },
    auth: true,
  });

export const getSmsStatus = (requestId: string) =>
  apiFetch<SmsStatusResponse>(`/api/sms/status/${encodeURIComponent(requestId)}`, { auth: true });

export const cancelSmsRequest = (requestId: string) =>
  apiFetch<{ status: string; refunded: boolean }>("/api/sms/cancel", { method: "POST", body: { request_id: requestId }, auth: true });

/** Spec section 9: country cache 300000 ms. */
export const smsCountriesQueryOptions = (provider: SmsProvider) =>
  queryOptions({
    queryKey: ["sms-countries", provider],
    queryFn: () => getSmsCountries(provider),
    staleTime: 300_000,
  });

/** Spec section 9: price cache 120000 ms, one retry. */
export const smsPricesQueryOptions = (provider: SmsProvider, countryId: string) =>
  queryOptions({
    queryKey: ["sms-prices", provider, countryId],
    queryFn: () => getSmsPrices(provider, countryId),
    staleTime: 120_000,
    retry: 1,
    enabled: countryId !== "",
  });

/** Whether an order's `sms` value is final: a code or one of the two failure texts. */
export function isSmsSettled(status: SmsStatusResponse | undefined): boolean {
  if (!status) return false;
  // A "try another number" route that ended while the next one is being bought: keep looking until it is named.
  if (status.chain?.moving_on && !status.chain.next_request_id) return false;
  return status.sms != null || (status.status !== "waiting" && status.status !== "pending");
}

/**
 * The order's state. While waiting it polls at the spec's 6 s (long when the realtime socket is up: the sms.code /
 * sms.ended pushes invalidate this key) and stops once the order is settled.
 */
export const smsOrderQueryOptions = (requestId: string) =>
  queryOptions({
    queryKey: ["sms-order", requestId],
    queryFn: () => getSmsStatus(requestId),
    staleTime: 0,
    // Polling resumes while another code is awaited on a number that already had one.
    refetchInterval: (query) =>
      isSmsSettled(query.state.data) && !query.state.data?.waiting_for_another_code ? false : pollEvery(SMS_POLL_MS),
  });

export const useSmsCountries = (provider: SmsProvider) => useQuery(smsCountriesQueryOptions(provider));
export const useSmsPrices = (provider: SmsProvider, countryId: string) => useQuery(smsPricesQueryOptions(provider, countryId));
export const useSmsOrder = (requestId: string | null) =>
  useQuery({ ...smsOrderQueryOptions(requestId ?? ""), enabled: Boolean(requestId) });

export function useBuyNumber() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: buyNumber, onSettled: () => void invalidateMoney(qc) });
}

export function useBuyNumbers() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: buyNumbers, onSettled: () => void invalidateMoney(qc) });
}

export function useRequestAnotherSmsCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestAnotherSmsCode,
    onSettled: (_data, _err, requestId) => void qc.invalidateQueries({ queryKey: ["sms-order", requestId] }),
  });
}

export function useCancelSmsRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelSmsRequest,
    onSettled: (_data, _err, requestId) => {
      void invalidateMoney(qc);
      void qc.invalidateQueries({ queryKey: ["sms-order", requestId] });
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Choosing well: favourites (server-side, so every device shows the same stars) and the compare view

export const favouritesQueryOptions = () =>
  queryOptions({
    queryKey: ["sms-favourites"],
    queryFn: () => apiFetch<SmsFavouritesResponse>("/api/sms/favourites", { auth: true }).then((r) => r.favourites),
    // Read again on every mount: the persisted cache is written at most once a second, so a reload right after a star
    // restored the list from before it (and a star made on another device showed only a minute later).
    staleTime: 0,
  });

export const useSmsFavourites = () => useQuery(favouritesQueryOptions());

export function useToggleFavourite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SmsFavourite & { starred: boolean }) =>
      apiFetch<SmsFavouritesResponse>("/api/sms/favourites", { method: "PUT", body, auth: true }).then((r) => r.favourites),
    onSuccess: (favourites) => qc.setQueryData(favouritesQueryOptions().queryKey, favourites),
  });
}

export const smsCompareQueryOptions = (provider: SmsProvider, serviceId: string) =>
  queryOptions({
    queryKey: ["sms-compare", provider, serviceId],
    queryFn: () =>
      apiFetch<SmsCompareResponse>(`/api/sms/compare?provider=${encodeURIComponent(provider)}&service=${encodeURIComponent(serviceId)}`, { auth: true }),
    staleTime: 120_000,
    enabled: serviceId !== "",
  });

export const useSmsCompare = (provider: SmsProvider, serviceId: string, enabled: boolean) =>
  useQuery({ ...smsCompareQueryOptions(provider, serviceId), enabled: enabled && serviceId !== "" });
