
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
import { answer, jsonBody, route } from "./kit";

/** Accounts (spec sections 2, 3, 5, 7, 8; docs/api.md "Accounts"), mounted at /api (routes/accounts.ts). */

export const register = route({
  method: "post",
  path: "/register",
  request: { body: jsonBody(registerSchema) },
  responses: { 201: answer<AuthResponse & MessageAnswer>("Signed up and signed in") },
});

export const referralInvitation = route({
  method: "get",
  path: "/referral/{code}",
  request: { params: referralCodeParamSchema },
  responses: { 200: answer<ReferralInvitation>() },
});

/** With two-factor sign-in on, a challenge for POST /login/2fa instead of the session. */
export const login = route({
  method: "post",
  path: "/login",
  request: { body: jsonBody(loginSchema) },
  responses: { 200: answer<AuthResponse | LoginChallenge>() },
});

export const loginSecondStep = route({
  method: "post",
  path: "/login/2fa",
  request: { body: jsonBody(loginTwoFactorSchema) },
  responses: { 200: answer<AuthResponse>() },
});

export const logout = route({ method: "post", path: "/logout", responses: { 200: answer<MessageAnswer>() } });

/** SPEC 7 "data is a text message": the body is the message itself, a JSON string. */
export const updateProfile = route({
  method: "patch",
  path: "/update",
  request: { body: jsonBody(profileUpdateSchema) },
  responses: { 200: answer<string>() },
});

/** SPEC 7 "data.data message". */
export const changePassword = route({
  method: "patch",
  path: "/password",
  request: { body: jsonBody(passwordChangeSchema) },
  responses: { 200: answer<DataOf<string>>() },
});

export const forgotPassword = route({
  method: "post",
  path: "/forgot-password",
  request: { body: jsonBody(forgotPasswordSchema) },
  responses: { 200: answer<MessageAnswer>() },
});

export const resetPassword = route({
  method: "post",
  path: "/reset-password",
  request: { body: jsonBody(resetPasswordSchema) },
  responses: { 200: answer<MessageAnswer>() },
});
