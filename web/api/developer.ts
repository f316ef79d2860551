import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyView, CreatedApiKey, CreateApiKeyInput, WebhookEventView } from "../../schema/api-keys";
import { apiFetch } from "./client";
import * as queryKeys from "./keys";

// The Settings "API" section (docs/api.md "Developer API keys"): keys, the sandbox wallet, webhooks and their log.

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.developerKeys,
    queryFn: () => apiFetch<{ data: ApiKeyView[] }>("/api/keys", { auth: true }).then((r) => r.data),
    staleTime: 0,
  });

export const sandboxWalletQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sandboxWallet,
    queryFn: () => apiFetch<{ balance: number }>("/api/keys/sandbox", { auth: true }),
    staleTime: 0,
  });

export const webhookLogQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: queryKeys.webhookLog(keyId),
    queryFn: () => apiFetch<{ data: WebhookEventView[] }>(`/api/keys/${encodeURIComponent(keyId)}/webhook/events`, { auth: true }).then((r) => r.data),
    staleTime: 0,
  });

function useDeveloperMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.developer }) });
}

export const useCreateApiKey = () => useDeveloperMutation((input: CreateApiKeyInput) => apiFetch<CreatedApiKey>("/api/keys", { method: "POST", auth: true, body: input }));

export const useRevokeApiKey = () =>
  useDeveloperMutation((id: string) => apiFetch<ApiKeyView>(`/api/keys/${encodeURIComponent(id)}/revoke`, { method: "POST", auth: true }));

export const useSetWebhookUrl = () =>
  useDeveloperMutation((input: { id: string; url: string | null }) =>
    apiFetch<ApiKeyView>(`/api/keys/${encodeURIComponent(input.id)}/webhook`, { method: "PUT", auth: true, body: { url: input.url } }),
  );

export const useResendWebhookEvent = () =>
  useDeveloperMutation((input: { keyId: string; eventId: string }) =>
    apiFetch<WebhookEventView>(`/api/keys/${encodeURIComponent(input.keyId)}/webhook/events/${encodeURIComponent(input.eventId)}/resend`, {
      method: "POST",
      auth: true,
    }),
  );

export const useSandboxTopUp = () =>
  useDeveloperMutation((amount: number) => apiFetch<{ balance: number }>("/api/keys/sandbox/top-up", { method: "POST", auth: true, body: { amount } }));
