import type { DataOf } from "../../schema/answers";
import {
  notificationPreferencesSchema,
  pushDeviceIdSchema,
  pushRenewalSchema,
  pushSubscriptionSchema,
  rentalForwardingSchema,
  type NotificationSettingsView,
  type PushDeviceView,
  type RentalForwardingView,
} from "../../schema/notifications";
import { rentalIdParamSchema } from "../../schema/rentals";
import { answer, jsonBody, route } from "./kit";

/**
 * Settings → Notifications and a rental's forwarding (issue 47, decision 069), mounted at /api (routes/notifications.ts):
 * Web Push devices, the push choices, where rental messages are forwarded, and the service worker's renewal.
 */

export const notificationSettings = route({ method: "get", path: "/notifications", responses: { 200: answer<NotificationSettingsView>() } });

export const pushPreferences = route({
  method: "put",
  path: "/notifications/preferences",
  request: { body: jsonBody(notificationPreferencesSchema) },
  responses: { 200: answer<NotificationSettingsView>() },
});

/** The account's default forwarding of rental messages (a webhook URL asks for a recent sign-in proof). */
export const forwardingDefaults = route({
  method: "put",
  path: "/notifications/forwarding",
  request: { body: jsonBody(rentalForwardingSchema) },
  responses: { 200: answer<NotificationSettingsView>() },
});

/** Turns push on for this browser: its PushSubscription.toJSON(), bound to this session. */
export const addPushDevice = route({
  method: "post",
  path: "/notifications/devices",
  request: { body: jsonBody(pushSubscriptionSchema) },
  responses: { 201: answer<PushDeviceView>() },
});

export const removePushDevice = route({
  method: "delete",
  path: "/notifications/devices/{id}",
  request: { params: pushDeviceIdSchema },
  responses: { 200: answer<DataOf<PushDeviceView[]>>("The devices left") },
});

/** The service worker after `pushsubscriptionchange` (no session: the old subscription's endpoint and secret prove it). */
export const renewPushDevice = route({
  method: "post",
  path: "/notifications/devices/renew",
  request: { body: jsonBody(pushRenewalSchema) },
  responses: { 200: answer<{ renewed: true }>() },
});

export const rentalForwarding = route({
  method: "get",
  path: "/rentals/{id}/forwarding",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentalForwardingView>() },
});

export const setRentalForwarding = route({
  method: "put",
  path: "/rentals/{id}/forwarding",
  request: { params: rentalIdParamSchema, body: jsonBody(rentalForwardingSchema) },
  responses: { 200: answer<RentalForwardingView>() },
});

/** Back to the account's default. */
export const clearRentalForwarding = route({
  method: "delete",
  path: "/rentals/{id}/forwarding",
  request: { params: rentalIdParamSchema },
  responses: { 200: answer<RentalForwardingView>() },
});
