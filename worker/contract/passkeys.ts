
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
import { answer, jsonBody, route } from "./kit";

/**
 * Passkeys and step-up (decision 034), mounted at /api (routes/passkeys.ts). A ceremony's options are
 * @simplewebauthn/server's JSON for @simplewebauthn/browser, opaque here (schema/ imports no library).
 */

export const signInOptions = route({ method: "post", path: "/login/passkey/options", responses: { 200: answer<PasskeyCeremony>() } });

export const signInVerify = route({
  method: "post",
  path: "/login/passkey/verify",
  request: { body: jsonBody(passkeyAssertionSchema) },
  responses: { 200: answer<AuthResponse>() },
});

export const passkeys = route({ method: "get", path: "/passkeys", responses: { 200: answer<DataOf<PasskeyView[]>>() } });

export const registrationOptions = route({ method: "post", path: "/passkeys/options", responses: { 200: answer<PasskeyCeremony>() } });

export const addPasskey = route({
  method: "post",
  path: "/passkeys",
  request: { body: jsonBody(passkeyRegisterSchema) },
  responses: { 201: answer<PasskeySaved>() },
});

export const renamePasskey = route({
  method: "patch",
  path: "/passkeys/{id}",
  request: { params: passkeyIdParam, body: jsonBody(passkeyRenameSchema) },
  responses: { 200: answer<PasskeySaved>() },
});

export const removePasskey = route({
  method: "delete",
  path: "/passkeys/{id}",
  request: { params: passkeyIdParam },
  responses: { 200: answer<MessageAnswer>() },
});

export const stepUpState = route({ method: "get", path: "/step-up", responses: { 200: answer<StepUpState>() } });

export const stepUpOptions = route({ method: "post", path: "/step-up/passkey/options", responses: { 200: answer<PasskeyCeremony>() } });

export const stepUp = route({
  method: "post",
  path: "/step-up",
  request: { body: jsonBody(stepUpSchema) },
  responses: { 200: answer<StepUpDone>() },
});
