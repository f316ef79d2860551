import { queryOptions, useQuery } from "@tanstack/react-query";
import { pollEvery } from "../realtime/status";
import { apiFetch } from "./client";

/** GET /api/orders (docs/api.md): the caller's orders with a number, newest first. */
export type Order = {
  kind: "sms" | "rental";
  reference_code: string;
  purchased_number: string | null;
  sms: string | null;
  country: string;
  service: string;
  provider: string;
  /** Naira. */
  amount: number;
  status: string;
  /** The wallet balance in naira (the spec reads the first row's). */
  balance?: number;
  created_at?: string;
  expires_at?: string | null;
  sms_count?: number;
  can_cancel?: boolean;
  /** Routes of a "next route" purchase: the chain's id and this route's place in it (1 = the first). */
  chain_id?: string | null;
  chain_step?: number | null;
};

/** Spec section 9: orders refetched every 5000 ms, staleTime 0, not on window focus. */
export const ORDERS_POLL_MS = 5000;

export const getOrders = () =>
  apiFetch<{ data: Order[] } | Order[]>("/api/orders", { auth: true }).then((res) =>
    // The spec's client accepts data.data or data; orders without a number are ignored.
    (Array.isArray(res) ? res : (res?.data ?? [])).filter((o) => o.purchased_number != null),
  );

export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: ["orders"],
    queryFn: getOrders,
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: () => pollEvery(ORDERS_POLL_MS),
  });

export const useOrders = () => useQuery(ordersQueryOptions());
