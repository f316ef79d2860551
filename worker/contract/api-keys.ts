
import type { Balance, DataOf } from "../../schema/answers";
import {
  apiKeyIdSchema,
  apiKeyScopesSchema,
  createApiKeySchema,
  sandboxTopUpSchema,
  webhookEventIdSchema,
  webhookUrlSchema,
  type ApiKeyView,
  type CreatedApiKey,
  type DeveloperShareView,
  type WebhookEventView,
} from "../../schema/api-keys";
import { answer, jsonBody, route } from "./kit";

/** Settings "API": the customer's developer keys, their webhooks and the sandbox wallet, mounted at /api (routes/api-keys.ts). */

export const keys = route({ method: "get", path: "/keys", responses: { 200: answer<DataOf<ApiKeyView[]>>() } });

export const createKey = route({
  method: "post",
  path: "/keys",
  request: { body: jsonBody(createApiKeySchema) },
  responses: { 201: answer<CreatedApiKey>("The key, its secret shown this once") },
});

export const revokeKey = route({
  method: "post",
  path: "/keys/{id}/revoke",
  request: { params: apiKeyIdSchema },
  responses: { 200: answer<ApiKeyView>() },
});

/** The developer's `ref` share (issue 46, decision 075): the code, the percent and what it earned. */
export const refShare = route({ method: "get", path: "/keys/ref-share", responses: { 200: answer<DeveloperShareView>() } });

export const sandboxWallet = route({ method: "get", path: "/keys/sandbox", responses: { 200: answer<Balance>() } });

export const sandboxTopUp = route({
  method: "post",
  path: "/keys/sandbox/top-up",
  request: { body: jsonBody(sandboxTopUpSchema) },
  responses: { 200: answer<Balance>() },
});

/** What the key may do beyond buying and renting (issue 45: "withdraw", granted with a fresh passkey or TOTP). */
export const setKeyScopes = route({
  method: "put",
  path: "/keys/{id}/scopes",
  request: { params: apiKeyIdSchema, body: jsonBody(apiKeyScopesSchema) },
  responses: { 200: answer<ApiKeyView>() },
});

/** Where the key's webhook events go (null removes it). */
export const setWebhook = route({
  method: "put",
  path: "/keys/{id}/webhook",
  request: { params: apiKeyIdSchema, body: jsonBody(webhookUrlSchema) },
  responses: { 200: answer<ApiKeyView>() },
});

export const webhookEvents = route({
  method: "get",
  path: "/keys/{id}/webhook/events",
  request: { params: apiKeyIdSchema },
  responses: { 200: answer<DataOf<WebhookEventView[]>>() },
});

export const resendWebhookEvent = route({
  method: "post",
  path: "/keys/{id}/webhook/events/{eventId}/resend",
  request: { params: webhookEventIdSchema },
  responses: { 200: answer<WebhookEventView>() },
});
