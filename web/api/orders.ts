import { queryOptions, useQuery } from "@tanstack/react-query";
import { pollEvery } from "../realtime/status";
import type { OrderRow } from "../../schema/sms";
import { apiFetch } from "./client";
import * as queryKeys from "./keys";

/** Spec section 9: orders refetched every 5000 ms, staleTime 0, not on window focus. */
export const ORDERS_POLL_MS = 5000;

/** GET /api/orders (docs/api.md): the caller's orders with a number, newest first. */
export const getOrders = () =>
  apiFetch<{ data: OrderRow[] } | OrderRow[]>("/api/orders", { auth: true }).then((res) =>
    // The spec's client accepts data.data or data; orders without a number are ignored.
    (Array.isArray(res) ? res : (res?.data ?? [])).filter((o) => o.purchased_number != null),
  );

export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.orders,
    queryFn: getOrders,
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: () => pollEvery(ORDERS_POLL_MS),
  });

export const useOrders = () => useQuery(ordersQueryOptions());
