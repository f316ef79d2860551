import { createElement, useEffect, useSyncExternalStore, type ReactNode } from "react";

/**
 * sonner's toast API, loaded on demand. sonner is about 9 kB gzip and no screen needs a toast before it is usable, so
 * the toaster loads when the first toast is shown or once the page has gone idle, whichever comes first.
 *
 * sonner's <Toaster> only shows toasts published after it subscribed, so while a toaster host is mounted (web/app-
 * providers.tsx) a toast waits until the toaster is on screen. Without a host (unit tests) it goes straight to sonner.
 */
type ToastKind = "success" | "error" | "info" | "warning";
export type ToastOptions = {
  id?: string | number;
  /** A button in the toast (sonner's action), e.g. "Sign out everywhere" after a security change. */
  action?: { label: string; onClick: () => void };
  /** How long it stays, in ms (sonner's default is 4 s; a toast with a choice in it stays longer). */
  duration?: number;
};

/**
 * The id of a card payment's outcome toast, used by the realtime push (web/realtime/messages.ts) and the dashboard's
 * payment-return check (web/components/payment/use-card-payment-return.ts): in the tab back from checkout, the pushed
 * confirmation and the checked one merge into one toast, not two.
 */
export const PAYMENT_TOAST_ID = "card-payment-return";

let sonner: Promise<typeof import("sonner")> | null = null;
export const loadSonner = () => (sonner ??= import("sonner"));

let hostMounted = false;
let toasterWanted = false;
let markToasterReady: () => void = () => undefined;
let toasterReady = new Promise<void>((resolve) => (markToasterReady = resolve));
const listeners = new Set<() => void>();

/** Asks the host to mount the toaster (idempotent). */
export function requestToaster(): void {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const l of listeners) l();
}

function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  if (hostMounted) requestToaster();
  const ready = hostMounted ? toasterReady : Promise.resolve();
  // '⏰ Timeout: ...' and '❌ Error ...' draw their emoji as icons (a box on systems without an emoji font); the
  // drawing loads only with such a toast.
  const content: Promise<ReactNode> = /^(⏰|❌)/u.test(message)
    ? import("../components/ui/emoji-text").then(({ EmojiText }) => createElement(EmojiText, { text: message }))
    : Promise.resolve(message);
  void Promise.all([loadSonner(), ready, content]).then(([m, , shown]) => m.toast[kind](shown, options));
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show("success", message, options),
  error: (message: string, options?: ToastOptions) => show("error", message, options),
  info: (message: string, options?: ToastOptions) => show("info", message, options),
  warning: (message: string, options?: ToastOptions) => show("warning", message, options),
};

/** For the host: whether the toaster should be mounted yet. Mounting the host also schedules an idle preload. */
export function useToasterWanted(): boolean {
  useEffect(() => {
    hostMounted = true;
    // Preload after the screen has had its turn on the network and the CPU, so the first toast appears at once.
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") requestIdleCallback(requestToaster, { timeout: 2000 });
      else requestToaster();
    }, 1500);
    return () => {
      clearTimeout(timer);
      hostMounted = false;
    };
  }, []);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasterWanted,
    () => false,
  );
}

/** Rendered right after <Toaster>: its effect runs once the toaster has subscribed to sonner's toast stream. */
export function useSignalToasterReady(): void {
  useEffect(() => {
    markToasterReady();
    return () => {
      toasterReady = new Promise<void>((resolve) => (markToasterReady = resolve));
    };
  }, []);
}
