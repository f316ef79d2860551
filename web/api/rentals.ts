import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ACTIVE_RENTAL_STATUSES, type RentUnit } from "../../schema/constants";
import type { RentNumberRequest, RentQuoteRequest } from "../../schema/rentals";
import { json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";
import { invalidateMoney } from "./wallet";

/** Rent Number (docs/api.md "Rent Number"). The server computes the price; the client sends it back only to compare. */

/** How often an open inbox re-reads while the realtime socket is down (the server also checks upstream on each read). */
export const RENTAL_INBOX_POLL_MS = 10_000;

export const getRentCountries = () => signedIn.rent["country-list"].$get().then(json);

export const getRentStock = (body: RentQuoteRequest) => signedIn.rent.countries.$post({ json: body }).then(json);

export const rentNumber = (body: RentNumberRequest) => signedIn["rent-number"].$post({ json: body }).then(json);

const rental = signedIn.rentals[":id"];
export const getRental = (id: string) => rental.$get({ param: pathParams({ id }) }).then(json);
export const endRental = (id: string) => rental.end.$post({ param: pathParams({ id }) }).then(json);
export const cancelRental = (id: string) => rental.cancel.$post({ param: pathParams({ id }) }).then(json);

export const getExtendOptions = (id: string) => rental["extend-options"].$get({ param: pathParams({ id }) }).then(json);
export const extendRental = ({ id, unit, period, price }: { id: string; unit: RentUnit; period: number; price: number }) =>
  rental.extend.$post({ param: pathParams({ id }), json: { duration: unit, period, price } }).then(json);

/** Auto-renew (issue 32): on at the renewal price the customer was shown for one Extend choice, or off. */
export const setAutoRenew = ({ id, choice }: { id: string; choice: { unit: RentUnit; period: number; price: number } | null }) =>
  rental["auto-renew"]
    .$post({
      param: pathParams({ id }),
      json: choice ? { enabled: true, duration: choice.unit, period: choice.period, price: choice.price } : { enabled: false },
    })
    .then(json);

/** Countries change rarely: the spec's country cache (5 minutes). */
export const rentCountriesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.rentalCountries, queryFn: getRentCountries, staleTime: 300_000 });

/** Stock and price for one choice; always fresh (stock moves), never retried into a second charge-free lookup storm. */
export const rentStockQueryOptions = (req: RentQuoteRequest | null) =>
  queryOptions({
    queryKey: queryKeys.rentalStock(req),
    queryFn: () => getRentStock(req!),
    enabled: req !== null,
    staleTime: 0,
    gcTime: 60_000,
    retry: false,
  });

/**
 * The inbox: the realtime rental.sms / rental.ended pushes invalidate queryKeys.rental(id). While an inbox is open it also
 * asks every RENTAL_INBOX_POLL_MS, socket or not: each read makes the rental's watcher check upstream on demand, and a
 * push that raced a read can never leave an open inbox behind the orders table.
 */
export const rentalQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.rental(id),
    queryFn: () => getRental(id),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.rental.status;
      return status && !ACTIVE_RENTAL_STATUSES.includes(status) ? false : RENTAL_INBOX_POLL_MS;
    },
  });

export const useRentCountries = () => useQuery(rentCountriesQueryOptions());
export const useRentStock = (req: RentQuoteRequest | null) => useQuery(rentStockQueryOptions(req));
export const useRental = (id: string | null) => useQuery({ ...rentalQueryOptions(id ?? ""), enabled: Boolean(id) });

function useInvalidateRentalMoney() {
  const qc = useQueryClient();
  return (id?: string) => {
    void invalidateMoney(qc);
    if (id) void qc.invalidateQueries({ queryKey: queryKeys.rental(id) });
  };
}

export function useRentNumber() {
  const invalidate = useInvalidateRentalMoney();
  return useMutation({ mutationFn: rentNumber, onSettled: () => invalidate() });
}

export function useEndRental() {
  const invalidate = useInvalidateRentalMoney();
  return useMutation({ mutationFn: endRental, onSettled: (_d, _e, id) => invalidate(id) });
}

export function useCancelRental() {
  const invalidate = useInvalidateRentalMoney();
  return useMutation({ mutationFn: cancelRental, onSettled: (_d, _e, id) => invalidate(id) });
}

/** Extend choices with the server's price each (decision 019: empty where the upstream documents no extension). */
export const useExtendOptions = (id: string | null, active: boolean) =>
  useQuery({
    queryKey: queryKeys.rentalExtend(id),
    queryFn: () => getExtendOptions(id!),
    enabled: Boolean(id) && active,
    staleTime: 60_000,
    retry: false,
  });

export function useExtendRental() {
  const invalidate = useInvalidateRentalMoney();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: extendRental,
    onSettled: (_d, _e, vars) => {
      invalidate(vars.id);
      void qc.invalidateQueries({ queryKey: queryKeys.rentalExtend(vars.id) });
    },
  });
}

export function useSetAutoRenew() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setAutoRenew,
    onSuccess: (res, vars) => {
      qc.setQueryData(queryKeys.rental(vars.id), (old: Awaited<ReturnType<typeof getRental>> | undefined) => (old ? { ...old, rental: res.rental } : old));
    },
    onSettled: (_d, _e, vars) => void qc.invalidateQueries({ queryKey: queryKeys.rental(vars.id) }),
  });
}
