import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateApiKeyInput } from "../../schema/api-keys";
import { api } from "./client";
import * as queryKeys from "./keys";

// The Settings "API" section (docs/api.md "Developer API keys"): keys, the sandbox wallet, webhooks and their log.

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.developerKeys,
    queryFn: () => api("GET /api/keys", { auth: true }).then((r) => r.data),
    staleTime: 0,
  });

export const sandboxWalletQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sandboxWallet,
    queryFn: () => api("GET /api/keys/sandbox", { auth: true }),
    staleTime: 0,
  });

export const webhookLogQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: queryKeys.webhookLog(keyId),
    queryFn: () => api("GET /api/keys/:id/webhook/events", { params: { id: keyId }, auth: true }).then((r) => r.data),
    staleTime: 0,
  });

function useDeveloperMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.developer }) });
}

export const useCreateApiKey = () => useDeveloperMutation((input: CreateApiKeyInput) => api("POST /api/keys", { auth: true, body: input }));

export const useRevokeApiKey = () =>
  useDeveloperMutation((id: string) => api("POST /api/keys/:id/revoke", { params: { id }, auth: true }));

export const useSetWebhookUrl = () =>
  useDeveloperMutation((input: { id: string; url: string | null }) =>
    api("PUT /api/keys/:id/webhook", { params: { id: input.id }, auth: true, body: { url: input.url } }),
  );

export const useResendWebhookEvent = () =>
  useDeveloperMutation((input: { keyId: string; eventId: string }) =>
    api("POST /api/keys/:id/webhook/events/:eventId/resend", { params: { id: input.keyId, eventId: input.eventId }, auth: true }),
  );

export const useSandboxTopUp = () =>
  useDeveloperMutation((amount: number) => api("POST /api/keys/sandbox/top-up", { auth: true, body: { amount } }));
