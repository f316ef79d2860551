import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { Outlet } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { persister, queryClient } from "./query-client";
import { useTheme } from "./lib/theme";

/**
 * The data layer and toasts for every screen that talks to the API (auth forms and the signed-in shell). It is the
 * component of a pathless lazy route in web/router.tsx, so TanStack Query, its session-storage persister and sonner
 * (about 20 kB gzip together) stay out of the landing, privacy and terms pages: those render static content only.
 */
export default function AppProviders() {
  const { resolved } = useTheme();
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={{ persister, maxAge: 24 * 3600_000, buster: "v1" }}>
      <Outlet />
      {/* The spec's toast defaults: 4 s, 3 visible, gap 14 px, width 356 px (sonner's default width). */}
      <Toaster theme={resolved} duration={4000} visibleToasts={3} gap={14} richColors closeButton position="top-right" />
    </PersistQueryClientProvider>
  );
}
