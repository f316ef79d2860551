import type { ReactNode } from "react";
import { AppLink } from "../layout/app-link";
import { Logo } from "../layout/logo";

/** The status page's address (hash route; index.html's first-paint script shows the prerendered shell there). */
export const STATUS_PATH = "/status";

/**
 * The public status page's frame (issue 32): header, title, the figures' place, footer. Free of router and query
 * context, so the build prerenders it into index.html (web/prerender.tsx renderStatusShell) and a visitor to #/status
 * sees it before any script ran; the page (web/routes/status.tsx) renders the same frame with the figures in it.
 */
export function StatusShell({ signedIn = false, children }: { signedIn?: boolean; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-white dark:bg-slate-950">
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-4 sm:px-6">
          <Logo />
          <AppLink to={signedIn ? "/dashboard/1" : "/login/1"} className="rounded-md text-sm font-medium text-blue-700 hover:underline dark:text-blue-400">
            {signedIn ? "Dashboard" : "Login"}
          </AppLink>
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-bold tracking-tight">Service status</h1>
          <p className="text-slate-600 dark:text-slate-300">
            What works, from our own orders: each provider's success rate and time to a code over the last 7 and 30 days,
            whether it is up now, and what we are fixing.
          </p>
        </div>
        {children}
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-6">
          <AppLink to="/homepage/1" className="hover:underline">Home</AppLink>
          <AppLink to="/prices/1" className="hover:underline">Prices</AppLink>
          <AppLink to="/privacy/1" className="hover:underline">Privacy</AppLink>
          <AppLink to="/terms/1" className="hover:underline">Terms</AppLink>
        </nav>
      </footer>
    </div>
  );
}

/** What the shell holds until the figures arrive (the prerendered HTML and the page's first render alike). */
export function StatusLoading() {
  return (
    <p role="status" className="text-slate-600 dark:text-slate-300" data-testid="status-loading">
      Loading the latest figures...
    </p>
  );
}
