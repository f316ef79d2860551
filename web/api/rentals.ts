import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./client";
import { invalidateMoney } from "./wallet";

/** Rent Number (docs/api.md "Rent Number"). The server computes the price; the client sends it back only to compare. */

export type RentUnit = "hour" | "day" | "week" | "month";
export type RentCountry = { id: string | number; title: string };
export type RentStockRequest = { countryId: string; duration: RentUnit; period: number };
/** The body (SPEC 7 "data.limits[]"). No stock is an answer, not an error: price null, in_stock false and the spec's message. */
export type RentStock = {
  limits: { country_id: string | number; count: number; cost: number }[];
  price: number | null;
  in_stock?: boolean;
  message?: string;
};
export type RentNumberRequest = RentStockRequest & { price?: number };

export type Rental = {
  id: string;
  number: string;
  status: string;
  expires_at: string;
  country?: string;
  provider?: string;
  amount?: number;
  can_cancel?: boolean;
  /** What ending / cancelling now gives back (naira), decided by the server; null when that way out is closed. */
  refund_if_ended?: number | null;
  refund_if_cancelled?: number | null;
};
export type RentalMessage = { sender: string; text: string; code: string | null; received_at: string };
export type RentalDetail = { rental: Rental; messages: RentalMessage[] };

/** How often an open inbox re-reads while the realtime socket is down (the server also checks upstream on each read). */
export const RENTAL_INBOX_POLL_MS = 10_000;

export const getRentCountries = () =>
  apiFetch<RentCountry[] | Record<string, RentCountry>>("/api/rent/country-list", { auth: true }).then((data) =>
    Array.isArray(data) ? data : Object.values(data ?? {}),
  );

export const getRentStock = (body: RentStockRequest) =>
  apiFetch<RentStock>("/api/rent/countries", { method: "POST", body, auth: true });

export const rentNumber = (body: RentNumberRequest) =>
  apiFetch<{ number: string; rental: Rental; price?: number; shown_price?: number; message?: string }>("/api/rent-number", { method: "POST", body, auth: true });

export const getRental = (id: string) => apiFetch<RentalDetail>(`/api/rentals/${encodeURIComponent(id)}`, { auth: true });
export const endRental = (id: string) =>
  apiFetch<unknown>(`/api/rentals/${encodeURIComponent(id)}/end`, { method: "POST", body: {}, auth: true });
export const cancelRental = (id: string) =>
  apiFetch<unknown>(`/api/rentals/${encodeURIComponent(id)}/cancel`, { method: "POST", body: {}, auth: true });

export type ExtendOption = { unit: RentUnit; period: number; duration: string; price: number };
export const getExtendOptions = (id: string) =>
  apiFetch<{ extendable: boolean; options: ExtendOption[] }>(`/api/rentals/${encodeURIComponent(id)}/extend-options`, { auth: true });
export const extendRental = ({ id, unit, period, price }: { id: string; unit: RentUnit; period: number; price: number }) =>
  apiFetch<{ rental: Rental; charged: number }>(`/api/rentals/${encodeURIComponent(id)}/extend`, {
    method: "POST",
    body: { duration: unit, period, price },
    auth: true,
  });

/** Countries change rarely: the spec's country cache (5 minutes). */
export const rentCountriesQueryOptions = () =>
  queryOptions({ queryKey: ["rental-countries"], queryFn: getRentCountries, staleTime: 300_000 });

/** Stock and price for one choice; always fresh (stock moves), never retried into a second charge-free lookup storm. */
export const rentStockQueryOptions = (req: RentStockRequest | null) =>
  queryOptions({
    queryKey: ["rental-stock", req?.countryId, req?.duration, req?.period],
    queryFn: () => getRentStock(req!),
    enabled: req !== null,
    staleTime: 0,
    gcTime: 60_000,
    retry: false,
  });

const ACTIVE_RENTAL = new Set(["active", "pending", "waiting"]);

/**
 * The inbox: the realtime rental.sms / rental.ended pushes invalidate ["rental", id]. While an inbox is open it also
 * asks every RENTAL_INBOX_POLL_MS, socket or not: each read makes the rental's watcher check upstream on demand, and a
 * push that raced a read can never leave an open inbox behind the orders table.
 */
export const rentalQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["rental", id],
    queryFn: () => getRental(id),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.rental.status;
      return status && !ACTIVE_RENTAL.has(status) ? false : RENTAL_INBOX_POLL_MS;
    },
  });

export const useRentCountries = () => useQuery(rentCountriesQueryOptions());
export const useRentStock = (req: RentStockRequest | null) => useQuery(rentStockQueryOptions(req));
export const useRental = (id: string | null) => useQuery({ ...rentalQueryOptions(id ?? ""), enabled: Boolean(id) });

function useInvalidateRentalMoney() {
  const qc = useQueryClient();
  return (id?: string) => {
    void invalidateMoney(qc);
    if (id) void qc.invalidateQueries({ queryKey: ["rental", id] });
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
    queryKey: ["rental-extend", id],
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
      void qc.invalidateQueries({ queryKey: ["rental-extend", vars.id] });
    },
  });
}
