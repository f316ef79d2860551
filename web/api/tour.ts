import type { QueryClient } from "@tanstack/react-query";
import type { AccountState } from "../../schema/accounts";
import { signedIn } from "./client";
import * as queryKeys from "./keys";

/**
 * POST /api/account/tour-closed: the dashboard tour was closed (x, Escape or Finish) and must not open by itself again
 * on this device or any other (issue 28). The cached account says so at once; a failed call is retried by the next
 * close, and this device's own flag (localStorage) already keeps it closed here.
 */
export function recordTourClosed(queryClient: QueryClient): void {
  queryClient.setQueryData<AccountState>(queryKeys.account, (state) => (state ? { ...state, tour_closed: true } : state));
  void signedIn.account["tour-closed"].$post().catch(() => undefined);
}
