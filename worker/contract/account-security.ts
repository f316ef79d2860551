import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  verifyEmailSchema,
  type AccountState,
  type MessageAnswer,
  type SignedInDevice,
  type TwoFactorSetup,
  type TwoFactorState,
} from "../../schema/accounts";
import type { DataOf, SessionsRevoked, TwoFactorEnabled } from "../../schema/answers";
import { answer, jsonBody } from "./kit";

/** The account's security (issue 12; docs/api.md "Account security"), mounted at /api (routes/account-security.ts). */

export const account = createRoute({ method: "get", path: "/account", responses: { 200: answer<AccountState>() } });

export const closeTour = createRoute({ method: "post", path: "/account/tour-closed", responses: { 200: answer<{ tour_closed: true }>() } });

export const verifyEmail = createRoute({
  method: "post",
  path: "/verify-email",
  request: { body: jsonBody(verifyEmailSchema) },
  responses: { 200: answer<MessageAnswer>() },
});

export const resendVerification = createRoute({ method: "post", path: "/verify-email/resend", responses: { 200: answer<MessageAnswer>() } });

export const sessions = createRoute({ method: "get", path: "/sessions", responses: { 200: answer<DataOf<SignedInDevice[]>>() } });

export const revokeSession = createRoute({
  method: "post",
  path: "/sessions/{id}/revoke",
  request: { params: z.object({ id: z.string().trim().min(1).max(100) }) },
  responses: { 200: answer<SessionsRevoked & { current: boolean }>() },
});

export const revokeAllSessions = createRoute({ method: "post", path: "/sessions/revoke-all", responses: { 200: answer<SessionsRevoked>() } });

export const twoFactor = createRoute({ method: "get", path: "/2fa", responses: { 200: answer<TwoFactorState>() } });

export const twoFactorSetup = createRoute({ method: "post", path: "/2fa/setup", responses: { 200: answer<TwoFactorSetup>() } });

export const twoFactorEnable = createRoute({
  method: "post",
  path: "/2fa/enable",
  request: { body: jsonBody(twoFactorEnableSchema) },
  responses: { 200: answer<TwoFactorEnabled>() },
});

export const twoFactorDisable = createRoute({
  method: "post",
  path: "/2fa/disable",
  request: { body: jsonBody(twoFactorDisableSchema) },
  responses: { 200: answer<MessageAnswer>() },
});
