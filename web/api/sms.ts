import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { pollEvery } from "../realtime/status";
import { SMS_PROVIDERS, type SmsProviderName } from "../../schema/constants";
import type { SmsFavourite, SmsGetNumberRequest, SmsStatusResponse } from "../../schema/sms";
import { api, json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";
import { invalidateMoney } from "./wallet";

/** Receive SMS (docs/api.md "Receive SMS"). The server computes every price; the client only shows `price`. */

/** What each provider name means to a customer, in the order the screen offers them. */
export const SMS_PROVIDER_LABELS: Record<SmsProviderName, string> = { Swift: "Swift SMS", Dynamic: "Dynamic SMS" };
export const SMS_PROVIDER_OPTIONS = SMS_PROVIDERS.map((value) => ({ value, label: SMS_PROVIDER_LABELS[value] }));

/** Spec section 9: SMS polling every 6000 ms. */
export const SMS_POLL_MS = 6000;

export const getSmsCountries = (provider: SmsProviderName) => api.sms.countries.$get({ query: { provider } }).then(json);

export const getSmsPrices = (provider: SmsProviderName, countryId: string) =>
  // Signed in: the server prices for this customer's discount tier (the same price it will charge).
  signedIn.sms.price
    .$get({ query: { id: countryId, provider } })
    .then(json)
    .then((byService) => Object.values(byService));

/**
 * GET /api/sms/public-prices: the public price page's list, the starter tier's prices whoever asks (sent without the
 * token, so every visitor shares the edge's cached copy).
 */
export const getPublicPrices = (provider: SmsProviderName, countryId: string) =>
  api.sms["public-prices"].$get({ query: { provider, country: countryId } }).then(json);

export const publicPricesQueryOptions = (provider: SmsProviderName, countryId: string) =>
  queryOptions({
    queryKey: queryKeys.smsPublicPrices(provider, countryId),
    queryFn: () => getPublicPrices(provider, countryId),
    staleTime: 60_000,
    enabled: countryId !== "",
  });

export const buyNumber = (body: SmsGetNumberRequest) => signedIn.sms["get-number"].$post({ json: body }).then(json);

/** Several numbers (2-5) for one service, each its own order. */
export const buyNumbers = (body: SmsGetNumberRequest & { quantity: number }) => signedIn.sms["get-numbers"].$post({ json: body }).then(json);

export const requestAnotherSmsCode = (requestId: string) => signedIn.sms["another-code"].$post({ json: { request_id: requestId } }).then(json);
/** Issue 43: stop waiting for another code (the number closes now; nothing is charged). */
export const finishSmsOrder = (requestId: string) => signedIn.sms.finish.$post({ json: { request_id: requestId } }).then(json);

export const getSmsStatus = (requestId: string) => signedIn.sms.status[":request_id"].$get({ param: pathParams({ request_id: requestId }) }).then(json);

/** "Use this number again" (issue 32): what it costs and how long a code usually takes, asked before the click. */
export const getUseAgainQuote = (requestId: string) => signedIn.sms["use-again"][":request_id"].$get({ param: pathParams({ request_id: requestId }) }).then(json);

/** The new order on the same number, at the price the confirm step showed (409 PRICE_CHANGED if the server's moved). */
export const useNumberAgain = ({ requestId, price }: { requestId: string; price: number }) =>
  signedIn.sms["use-again"].$post({ json: { request_id: requestId, price } }).then(json);

export const cancelSmsRequest = (requestId: string) => signedIn.sms.cancel.$post({ json: { request_id: requestId } }).then(json);

/** Spec section 9: country cache 300000 ms. */
export const smsCountriesQueryOptions = (provider: SmsProviderName) =>
  queryOptions({
    queryKey: queryKeys.smsCountries(provider),
    queryFn: () => getSmsCountries(provider),
    staleTime: 300_000,
  });

/** Spec section 9: price cache 120000 ms, one retry. */
export const smsPricesQueryOptions = (provider: SmsProviderName, countryId: string) =>
  queryOptions({
    queryKey: queryKeys.smsPrices(provider, countryId),
    queryFn: () => getSmsPrices(provider, countryId),
    staleTime: 120_000,
    retry: 1,
    enabled: countryId !== "",
  });

/** Whether this order needs no more polling: the server's phase says it ended, or its chain named the next order. */
export function isSmsSettled(status: SmsStatusResponse | undefined): boolean {
  if (!status) return false;
  // A "try another number" route the chain moved on from: the screen follows the next order, this one is over.
  if (status.chain?.next_request_id) return true;
  return status.phase !== "waiting";
}

/**
 * The order's state. While waiting it polls at the spec's 6 s (long when the realtime socket is up: the sms.code /
 * sms.ended pushes invalidate this key) and stops once the order is settled.
 */
export const smsOrderQueryOptions = (requestId: string) =>
  queryOptions({
    queryKey: queryKeys.smsOrder(requestId),
    queryFn: () => getSmsStatus(requestId),
    staleTime: 0,
    // Polling resumes while another code is awaited on a number that already had one.
    refetchInterval: (query) =>
      isSmsSettled(query.state.data) && !query.state.data?.waiting_for_another_code ? false : pollEvery(SMS_POLL_MS),
  });

export const useSmsCountries = (provider: SmsProviderName) => useQuery(smsCountriesQueryOptions(provider));
export const useSmsPrices = (provider: SmsProviderName, countryId: string) => useQuery(smsPricesQueryOptions(provider, countryId));
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

/** The confirm step's quote: read fresh each time it opens (the price is today's), never retried into a second ask. */
export const useUseAgainQuote = (requestId: string | null) =>
  useQuery({
    queryKey: queryKeys.smsUseAgain(requestId ?? ""),
    queryFn: () => getUseAgainQuote(requestId!),
    enabled: Boolean(requestId),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export function useUseNumberAgain() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: useNumberAgain, onSettled: () => void invalidateMoney(qc) });
}

export function useRequestAnotherSmsCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestAnotherSmsCode,
    onSettled: (_data, _err, requestId) => void qc.invalidateQueries({ queryKey: queryKeys.smsOrder(requestId) }),
  });
}

export function useFinishSmsOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: finishSmsOrder,
    onSettled: (_data, _err, requestId) => void qc.invalidateQueries({ queryKey: queryKeys.smsOrder(requestId) }),
  });
}

export function useCancelSmsRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelSmsRequest,
    onSettled: (_data, _err, requestId) => {
      void invalidateMoney(qc);
      void qc.invalidateQueries({ queryKey: queryKeys.smsOrder(requestId) });
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Choosing well: favourites (server-side, so every device shows the same stars) and the compare view

export const favouritesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.smsFavourites,
    queryFn: () => signedIn.sms.favourites.$get().then(json).then((r) => r.favourites),
    // Read again on every mount: the persisted cache is written at most once a second, so a reload right after a star
    // restored the list from before it (and a star made on another device showed only a minute later).
    staleTime: 0,
  });

export const useSmsFavourites = () => useQuery(favouritesQueryOptions());

export function useToggleFavourite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SmsFavourite & { starred: boolean }) =>
      signedIn.sms.favourites.$put({ json: body }).then(json).then((r) => r.favourites),
    onSuccess: (favourites) => qc.setQueryData(favouritesQueryOptions().queryKey, favourites),
  });
}

export const smsCompareQueryOptions = (provider: SmsProviderName, serviceId: string) =>
  queryOptions({
    queryKey: queryKeys.smsCompare(provider, serviceId),
    queryFn: () => signedIn.sms.compare.$get({ query: { provider, service: serviceId } }).then(json),
    staleTime: 120_000,
    enabled: serviceId !== "",
  });

export const useSmsCompare = (provider: SmsProviderName, serviceId: string, enabled: boolean) =>
  useQuery({ ...smsCompareQueryOptions(provider, serviceId), enabled: enabled && serviceId !== "" });
