import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { Outlet } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { persister, queryClient } from "./query-client";
import { loadChunk } from "./lib/screen-loading";
import { useToasterWanted } from "./lib/toast";

const AppToaster = lazy(() => loadChunk(() => import("./components/layout/toaster")));

/**
 * The data layer and toasts for every screen that talks to the API (auth forms and the signed-in shell). It is the
 * component of a pathless lazy route in web/router.tsx, so TanStack Query and its session-storage persister stay out
 * of the landing, privacy and terms pages; sonner loads later still, on the first toast or when the page goes idle.
 */
export default function AppProviders() {
  const toasterWanted = useToasterWanted();
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={{ persister, maxAge: 24 * 3600_000, buster: "v1" }}>
      <Outlet />
      {toasterWanted && (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      )}
    </PersistQueryClientProvider>
  );
}
