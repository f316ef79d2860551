import { pollEvery } from "../realtime/status";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { LevelRow } from "../../schema/settings";
import { api, json, signedIn } from "./client";
import * as queryKeys from "./keys";

/** GET /api/links: the operator's links. The first is the chat channel (header button), the second the dashboard tile. */
export const getLinks = () => api.links.$get().then(json);

export const linksQueryOptions = () => queryOptions({ queryKey: queryKeys.links, queryFn: getLinks });

export const useLinks = () => useQuery(linksQueryOptions());

/** GET /api/tiers: every discount tier, thresholds in naira. */
export const getTiers = () =>
  signedIn.tiers.$get().then(json).then((res) => [...res.data].sort((a, b) => a.threshold - b.threshold));

export const tiersQueryOptions = () => queryOptions({ queryKey: queryKeys.tiers, queryFn: getTiers });

export const useTiers = () => useQuery(tiersQueryOptions());

/** GET /api/wholesale-tiers (public): resellers' wholesale tiers by 30-day spend, lowest first (decision 074). */
export const wholesaleTiersQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.wholesaleTiers, queryFn: () => api["wholesale-tiers"].$get().then(json).then((res) => res.data ?? []) });

/** GET /api/level: a list whose first item carries the caller's total deposited (naira) and tier (from the token). */
export const getLevel = () =>
  signedIn.level
    .$get()
    .then(json)
    .then((rows): Pick<LevelRow, "total_deposited"> & Partial<LevelRow> => rows[0] ?? { total_deposited: 0 });

export const levelQueryOptions = () => queryOptions({ queryKey: queryKeys.level, queryFn: getLevel });

export const useLevel = () => useQuery(levelQueryOptions());

/** GET /api/ref: the body is the caller's referral link, a JSON string (SPEC 7 "Referral link as data"). */
export type Referral = string;

export const getRef = (): Promise<Referral> => signedIn.ref.$get().then(json);

export const refQueryOptions = () => queryOptions({ queryKey: queryKeys.ref, queryFn: getRef });

/** Spec section 9: ads are refetched every 10 s (while the realtime socket is down; see pollEvery). */
export const ADS_REFETCH_MS = 10_000;

/** The body is `{ data: Ad[] }` (SPEC 7 "data.data is a list of ads", data being the body). */
export const getAds = () => api.ads.$get().then(json).then((res) => res.data);

export const adsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.ads, queryFn: getAds, refetchInterval: () => pollEvery(ADS_REFETCH_MS) });

export const useAds = () => useQuery(adsQueryOptions());
