import { queryOptions, useQuery } from "@tanstack/react-query";
import { pollEvery } from "../realtime/status";
import { json, signedIn } from "./client";
import * as queryKeys from "./keys";

/** Spec section 9: orders refetched every 5000 ms, staleTime 0, not on window focus. */
export const ORDERS_POLL_MS = 5000;

/** GET /api/orders (docs/api.md): the caller's orders, newest first (the server lists only those with a number). */
export const getOrders = () => signedIn.orders.$get().then(json).then((res) => res.data);

export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.orders,
    queryFn: getOrders,
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: () => pollEvery(ORDERS_POLL_MS),
  });

export const useOrders = () => useQuery(ordersQueryOptions());
