import { createRoute } from "@hono/zod-openapi";
import {
  forgotPasswordSchema,
  loginSchema,
  loginTwoFactorSchema,
  passwordChangeSchema,
  profileUpdateSchema,
  referralCodeParamSchema,
  registerSchema,
  resetPasswordSchema,
  type AuthResponse,
  type LoginChallenge,
  type MessageAnswer,
  type ReferralInvitation,
} from "../../schema/accounts";
import type { DataOf } from "../../schema/answers";
import { answer, jsonBody } from "./kit";

/** Accounts (spec sections 2, 3, 5, 7, 8; docs/api.md "Accounts"), mounted at /api (routes/accounts.ts). */

export const register = createRoute({
  method: "post",
  path: "/register",
  request: { body: jsonBody(registerSchema) },
  responses: { 201: answer<AuthResponse & MessageAnswer>("Signed up and signed in") },
});

export const referralInvitation = createRoute({
  method: "get",
  path: "/referral/{code}",
  request: { params: referralCodeParamSchema },
  responses: { 200: answer<ReferralInvitation>() },
});

/** With two-factor sign-in on, a challenge for POST /login/2fa instead of the session. */
export const login = createRoute({
  method: "post",
  path: "/login",
  request: { body: jsonBody(loginSchema) },
  responses: { 200: answer<AuthResponse | LoginChallenge>() },
});

export const loginSecondStep = createRoute({
  method: "post",
  path: "/login/2fa",
  request: { body: jsonBody(loginTwoFactorSchema) },
  responses: { 200: answer<AuthResponse>() },
});

export const logout = createRoute({ method: "post", path: "/logout", responses: { 200: answer<MessageAnswer>() } });

/** SPEC 7 "data is a text message": the body is the message itself, a JSON string. */
export const updateProfile = createRoute({
  method: "patch",
  path: "/update",
  request: { body: jsonBody(profileUpdateSchema) },
  responses: { 200: answer<string>() },
});

/** SPEC 7 "data.data message". */
export const changePassword = createRoute({
  method: "patch",
  path: "/password",
  request: { body: jsonBody(passwordChangeSchema) },
  responses: { 200: answer<DataOf<string>>() },
});

export const forgotPassword = createRoute({
  method: "post",
  path: "/forgot-password",
  request: { body: jsonBody(forgotPasswordSchema) },
  responses: { 200: answer<MessageAnswer>() },
});

export const resetPassword = createRoute({
  method: "post",
  path: "/reset-password",
  request: { body: jsonBody(resetPasswordSchema) },
  responses: { 200: answer<MessageAnswer>() },
});
