import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { json, signedIn } from "./client";
import * as queryKeys from "./keys";

// The partner dashboard (issue 46, docs/api.md "Reseller"): the reseller role and the live wallet's sub-accounts.

export const resellerQueryOptions = () => queryOptions({ queryKey: queryKeys.reseller, queryFn: () => signedIn.reseller.$get().then(json), staleTime: 0 });

export const resellerSubaccountsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.resellerSubaccounts, queryFn: () => signedIn.reseller.subaccounts.$get().then(json).then((r) => r.data), staleTime: 0 });

export const useBecomeReseller = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signedIn.reseller.$post({ json: { accept_terms: true } }).then(json),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reseller }),
  });
};

// The partner page's markup form (decision 076). Its key lives here, not in keys.ts: keys.ts sits on the dashboard's
// first load, and only this lazy chunk reads it (invalidating `reseller` refreshes it too: the same prefix).
export const resellerMarkupsKey = ["reseller", "markups"] as const;

export const resellerMarkupsQueryOptions = () => queryOptions({ queryKey: resellerMarkupsKey, queryFn: () => signedIn.reseller.markups.$get().then(json), staleTime: 0 });

export const useSetResellerMarkups = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { percent: number; services: Record<string, number> }) => signedIn.reseller.markups.$put({ json: body }).then(json),
    onSuccess: (saved) => queryClient.setQueryData(resellerMarkupsKey, saved),
    // The dashboard's "Your markup" figure reads the role's answer.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reseller, exact: true }),
  });
};
