
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
import { answer, jsonBody, route } from "./kit";

/** The account's security (issue 12; docs/api.md "Account security"), mounted at /api (routes/account-security.ts). */

export const account = route({ method: "get", path: "/account", responses: { 200: answer<AccountState>() } });

export const closeTour = route({ method: "post", path: "/account/tour-closed", responses: { 200: answer<{ tour_closed: true }>() } });

export const verifyEmail = route({
  method: "post",
  path: "/verify-email",
  request: { body: jsonBody(verifyEmailSchema) },
  responses: { 200: answer<MessageAnswer>() },
});

export const resendVerification = route({ method: "post", path: "/verify-email/resend", responses: { 200: answer<MessageAnswer>() } });

export const sessions = route({ method: "get", path: "/sessions", responses: { 200: answer<DataOf<SignedInDevice[]>>() } });

export const revokeSession = route({
  method: "post",
  path: "/sessions/{id}/revoke",
  request: { params: z.object({ id: z.string().trim().min(1).max(100) }) },
  responses: { 200: answer<SessionsRevoked & { current: boolean }>() },
});

export const revokeAllSessions = route({ method: "post", path: "/sessions/revoke-all", responses: { 200: answer<SessionsRevoked>() } });

export const twoFactor = route({ method: "get", path: "/2fa", responses: { 200: answer<TwoFactorState>() } });

export const twoFactorSetup = route({ method: "post", path: "/2fa/setup", responses: { 200: answer<TwoFactorSetup>() } });

export const twoFactorEnable = route({
  method: "post",
  path: "/2fa/enable",
  request: { body: jsonBody(twoFactorEnableSchema) },
  responses: { 200: answer<TwoFactorEnabled>() },
});

export const twoFactorDisable = route({
  method: "post",
  path: "/2fa/disable",
  request: { body: jsonBody(twoFactorDisableSchema) },
  responses: { 200: answer<MessageAnswer>() },
});
