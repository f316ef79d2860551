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
