import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, json, signedIn } from "./client";
import * as queryKeys from "./keys";

// Settings → Telegram (issue 48, decision 070): is a chat linked, a single-use link to connect one, unlinking.
// A deployment without a bot answers 404 on each: the section then shows nothing.

/** While a link is open in Telegram, the state is read again this often, so "Connected" shows without a reload. */
export const LINK_WAIT_POLL_MS = 3_000;

export const telegramQueryOptions = (waitingForLink: boolean) =>
  queryOptions({
    queryKey: queryKeys.telegram,
    queryFn: () => signedIn.telegram.$get().then(json),
    // 404: no bot on this deployment, not a failure to retry.
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 2,
    refetchInterval: (q) => (waitingForLink && q.state.data && !q.state.data.linked ? LINK_WAIT_POLL_MS : false),
  });

export const useTelegram = (waitingForLink: boolean) => useQuery(telegramQueryOptions(waitingForLink));

/** POST /api/telegram/link: a new single-use t.me link (10 minutes); earlier unused ones stop working. */
export const useStartTelegramLink = () => useMutation({ mutationFn: () => signedIn.telegram.link.$post().then(json) });

/** DELETE /api/telegram/link: unlinks the chat (the chat is told). */
export function useUnlinkTelegram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => signedIn.telegram.link.$delete().then(json),
    onSuccess: (state) => client.setQueryData(queryKeys.telegram, state),
  });
}
