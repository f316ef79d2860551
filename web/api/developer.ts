import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyScope, CreateApiKeyInput } from "../../schema/api-keys";
import { json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// The Settings "API" section (docs/api.md "Developer API keys"): keys, the sandbox wallet, webhooks and their log.

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.developerKeys,
    queryFn: () => signedIn.keys.$get().then(json).then((r) => r.data),
    staleTime: 0,
  });

export const sandboxWalletQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sandboxWallet,
    queryFn: () => signedIn.keys.sandbox.$get().then(json),
    staleTime: 0,
  });

/** The developer's `ref` share (issue 46, decision 075): the code, the percent, what it earned. */
export const refShareQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.refShare,
    queryFn: () => signedIn.keys["ref-share"].$get().then(json),
    staleTime: 0,
  });

export const webhookLogQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: queryKeys.webhookLog(keyId),
    queryFn: () => signedIn.keys[":id"].webhook.events.$get({ param: pathParams({ id: keyId }) }).then(json).then((r) => r.data),
    staleTime: 0,
  });

function useDeveloperMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.developer }) });
}

export const useCreateApiKey = () => useDeveloperMutation((input: CreateApiKeyInput) => signedIn.keys.$post({ json: input }).then(json));

export const useRevokeApiKey = () =>
  useDeveloperMutation((id: string) => signedIn.keys[":id"].revoke.$post({ param: pathParams({ id }) }).then(json));

export const useSetWebhookUrl = () =>
  useDeveloperMutation((input: { id: string; url: string | null }) =>
    signedIn.keys[":id"].webhook.$put({ param: pathParams({ id: input.id }), json: { url: input.url } }).then(json),
  );

/** Issue 45: the key's scopes ("withdraw" is granted only after a passkey or TOTP: the step-up dialog asks). */
export const useSetKeyScopes = () =>
  useDeveloperMutation((input: { id: string; scopes: ApiKeyScope[] }) =>
    signedIn.keys[":id"].scopes.$put({ param: pathParams({ id: input.id }), json: { scopes: input.scopes } }).then(json),
  );

export const useResendWebhookEvent = () =>
  useDeveloperMutation((input: { keyId: string; eventId: string }) =>
    signedIn.keys[":id"].webhook.events[":eventId"].resend.$post({ param: pathParams({ id: input.keyId, eventId: input.eventId }) }).then(json),
  );

export const useSandboxTopUp = () =>
  useDeveloperMutation((amount: number) => signedIn.keys.sandbox["top-up"].$post({ json: { amount } }).then(json));
