/**
 * Notifications (issue 47, decision 069): codes that reach the customer anywhere. Web Push devices, the customer's
 * choices and rental forwarding (Settings → Notifications, a rental's own), and the delivery channels the kernel's
 * outbox fans each event out to (the container hands them over as kernel DeliveryChannels; the customer's delivery job on the queue
 * sends). May import kernel, accounts and rent.
 * This file is the room's one entry point: everything outside worker/services/notifications/ imports the room from
 * here, and a file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { channelRowsFor, deliverDueChannels, deliveryChannels, kickChannels, purgeChannelDeliveries, reviveChannelDelivery, sweepChannels } from "./delivery-channels";
export { pushWordsFor } from "./push-notification";
export { forwardingUrlProblem, notificationSettingsView, setForwardingDefaults, updatePushPreferences } from "./notification-settings";
export { listPushDevices, pushEndpointProblem, registerPushDevice, removePushDevice, renewPushDevice } from "./push-devices";
export { clearRentalForwarding, forwardsToTelegram, rentalForwardingView, setRentalForwarding, setRentalTelegramForwarding } from "./rental-forwarding";
