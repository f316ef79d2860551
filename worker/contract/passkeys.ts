import { createRoute } from "@hono/zod-openapi";
import type { AuthResponse, MessageAnswer } from "../../schema/accounts";
import type { DataOf, PasskeySaved, StepUpDone } from "../../schema/answers";
import {
  passkeyAssertionSchema,
  passkeyIdParam,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  stepUpSchema,
  type PasskeyCeremony,
  type PasskeyView,
  type StepUpState,
} from "../../schema/passkeys";
import { answer, jsonBody } from "./kit";

/**
 * Passkeys and step-up (decision 034), mounted at /api (routes/passkeys.ts). A ceremony's options are
 * @simplewebauthn/server's JSON for @simplewebauthn/browser, opaque here (schema/ imports no library).
 */

export const signInOptions = createRoute({ method: "post", path: "/login/passkey/options", responses: { 200: answer<PasskeyCeremony>() } });

export const signInVerify = createRoute({
  method: "post",
  path: "/login/passkey/verify",
  request: { body: jsonBody(passkeyAssertionSchema) },
  responses: { 200: answer<AuthResponse>() },
});

export const passkeys = createRoute({ method: "get", path: "/passkeys", responses: { 200: answer<DataOf<PasskeyView[]>>() } });

export const registrationOptions = createRoute({ method: "post", path: "/passkeys/options", responses: { 200: answer<PasskeyCeremony>() } });

export const addPasskey = createRoute({
  method: "post",
  path: "/passkeys",
  request: { body: jsonBody(passkeyRegisterSchema) },
  responses: { 201: answer<PasskeySaved>() },
});

export const renamePasskey = createRoute({
  method: "patch",
  path: "/passkeys/{id}",
  request: { params: passkeyIdParam, body: jsonBody(passkeyRenameSchema) },
  responses: { 200: answer<PasskeySaved>() },
});

export const removePasskey = createRoute({
  method: "delete",
  path: "/passkeys/{id}",
  request: { params: passkeyIdParam },
  responses: { 200: answer<MessageAnswer>() },
});

export const stepUpState = createRoute({ method: "get", path: "/step-up", responses: { 200: answer<StepUpState>() } });

export const stepUpOptions = createRoute({ method: "post", path: "/step-up/passkey/options", responses: { 200: answer<PasskeyCeremony>() } });

export const stepUp = createRoute({
  method: "post",
  path: "/step-up",
  request: { body: jsonBody(stepUpSchema) },
  responses: { 200: answer<StepUpDone>() },
});
