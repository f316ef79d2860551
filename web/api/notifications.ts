import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationPreferencesInput, NotificationSettingsView, PushSubscriptionInput, RentalForwardingInput } from "../../schema/notifications";
import { json, pathParams, signedIn } from "./client";

// Settings → Notifications and a rental's forwarding (issue 47, docs/api.md "Notifications"). A lazy chunk's module:
// nothing of it is on the dashboard's first load, its query keys included (web/api/keys.ts says why they live here).
export const queryKeys = {
  notifications: ["notifications"] as const,
  rentalForwarding: (id: string) => ["rental-forwarding", id] as const,
};

export const notificationSettingsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.notifications, queryFn: () => signedIn.notifications.$get().then(json), staleTime: 0 });

export const rentalForwardingQueryOptions = (rentalId: string) =>
  queryOptions({
    queryKey: queryKeys.rentalForwarding(rentalId),
    queryFn: () => signedIn.rentals[":id"].forwarding.$get({ param: pathParams({ id: rentalId }) }).then(json),
    staleTime: 0,
  });

/** A change whose answer is the whole settings view: it becomes the cached view at once. */
function useSettingsChange<I>(fn: (input: I) => Promise<NotificationSettingsView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (view) => queryClient.setQueryData(queryKeys.notifications, view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

export const useSavePushPreferences = () => useSettingsChange((input: NotificationPreferencesInput) => signedIn.notifications.preferences.$put({ json: input }).then(json));

export const useSaveForwardingDefaults = () => useSettingsChange((input: RentalForwardingInput) => signedIn.notifications.forwarding.$put({ json: input }).then(json));

export const addPushDevice = (subscription: PushSubscriptionInput) => signedIn.notifications.devices.$post({ json: subscription }).then(json);

export const removePushDevice = (id: string) => signedIn.notifications.devices[":id"].$delete({ param: pathParams({ id }) }).then(json);

export function useRentalForwardingChange(rentalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RentalForwardingInput | null) =>
      input === null
        ? signedIn.rentals[":id"].forwarding.$delete({ param: pathParams({ id: rentalId }) }).then(json)
        : signedIn.rentals[":id"].forwarding.$put({ param: pathParams({ id: rentalId }), json: input }).then(json),
    onSuccess: (view) => queryClient.setQueryData(queryKeys.rentalForwarding(rentalId), view),
  });
}
