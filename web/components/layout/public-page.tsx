import type { ReactNode } from "react";
import { AppLink } from "./app-link";
import { Logo } from "./logo";
import { useSessionUser } from "../../lib/use-session";

/** A simple public document page (privacy, terms): the logo, a readable column, the footer links. */
export function PublicPage({ title, updated, children }: { title: string; updated?: string; children: ReactNode }) {
  const user = useSessionUser();
  return (
    <div className="flex min-h-dvh flex-col bg-white dark:bg-slate-950">
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-4 sm:px-6">
          <Logo />
          {/* Issue 28: a signed-in visitor (the developers page, privacy, terms) is offered the way back, not a login. */}
          <AppLink to={user ? "/dashboard/1" : "/login/1"} className="rounded-md text-sm font-medium text-blue-700 hover:underline dark:text-blue-400">
            {user ? "Dashboard" : "Login"}
          </AppLink>
        </div>
      </header>
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {updated ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Last updated {updated}</p> : null}
        <div className="mt-8 flex flex-col gap-6 leading-relaxed text-slate-700 dark:text-slate-300 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 dark:[&_h2]:text-white [&_h2]:scroll-mt-6 [&_ul]:list-disc [&_ul]:pl-6 [&_ul]:space-y-1">
          {children}
        </div>
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
        <nav aria-label="Legal" className="flex justify-center gap-6">
          <AppLink to="/homepage/1" className="hover:underline">Home</AppLink>
          <AppLink to="/privacy/1" className="hover:underline">Privacy</AppLink>
          <AppLink to="/terms/1" className="hover:underline">Terms</AppLink>
        </nav>
      </footer>
    </div>
  );
}
