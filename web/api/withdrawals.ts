import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PayoutAccountInput } from "../../schema/withdrawals";
import { json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// Cash out (issue 45). A withdrawal's state is pushed as withdrawal.changed (the realtime map invalidates its key and
// the wallet's); while it is in flight the screen also re-reads it slowly, and each read asks Squad again (a 424 is
// re-queried by the server, never re-sent).

export const withdrawableQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.withdrawable, queryFn: () => signedIn.withdrawals.available.$get().then(json) });

export const useWithdrawable = () => useQuery(withdrawableQueryOptions());

export const savePayoutAccount = (input: PayoutAccountInput) => signedIn.withdrawals.account.$post({ json: input }).then(json).then((r) => r.data);

export const withdraw = (amount: number) => signedIn.withdrawals.$post({ json: { amount } }).then(json);

const IN_FLIGHT_POLL_MS = 3_000;

export const useWithdrawal = (id: string | null) =>
  useQuery({
    queryKey: queryKeys.withdrawal(id ?? ""),
    queryFn: () => signedIn.withdrawals[":id"].$get({ param: pathParams({ id: id ?? "" }) }).then(json),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data && !["held", "sending", "approval"].includes(q.state.data.state) ? false : IN_FLIGHT_POLL_MS),
  });
