import { LogOut, X } from "lucide-react";
import { useRouterState } from "@tanstack/react-router";
import { useLogout } from "../../api/accounts";
import { cn } from "../../lib/cn";
import { isNavActive } from "../../lib/nav";
import { useSessionUser } from "../../lib/use-session";
import { AppLink, useGo } from "./app-link";
import { ChatMenuLink } from "./chat-button";
import { Logo } from "./logo";
import { NAV_ITEMS } from "./nav-items";

/**
 * The side navigation: the logo, the spec's entries (highlight rule in web/lib/nav.ts) and the user's footer.
 * A fixed column from 500 px up; below that a slide-in drawer the header's menu button opens.
 */
const entry =
  "flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-blue-600 min-[500px]:max-sm:justify-center";
const entryLabel = "truncate min-[500px]:max-sm:sr-only";

/** onClose(true): closed from the drawer itself (its close control), so focus goes back to the menu button. */
export function SideNav({ id, open, onClose }: { id: string; open: boolean; onClose: (backToMenu?: boolean) => void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const user = useSessionUser();
  const logout = useLogout();
  const go = useGo();

  // Signed out at once, then to the homepage the spec names.
  const onLogout = async () => {
    logout();
    await go("/homepage/1");
  };

  return (
    <aside
      id={id}
      aria-label="Main"
      className={cn(
        "fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-slate-200 bg-white duration-200 dark:border-slate-800 dark:bg-slate-900",
        // 500-639 px: a rail of icons (a 13rem column took 42% of the width); from 640 px the spec's ~20% column.
        "min-[500px]:z-30 min-[500px]:w-[4.5rem] min-[500px]:max-w-none sm:w-[max(20%,13rem)]",
        // Under 500 px the drawer is off-screen and invisible (so it is out of the tab order) until opened. Opening
        // makes it visible at once (so focus can move into it); closing hides it after the slide.
        open ? "translate-x-0 transition-transform" : "transition-[transform,visibility] max-[499px]:invisible max-[499px]:-translate-x-full",
      )}
    >
      <div className="flex h-16 shrink-0 items-center justify-between px-4 min-[500px]:max-sm:justify-center min-[500px]:max-sm:px-2">
        <Logo className="min-[500px]:max-sm:[&>span]:sr-only" />
        <button
          type="button"
          onClick={() => onClose(true)}
          aria-label="Close menu"
          className="rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 min-[500px]:hidden dark:text-slate-300 dark:hover:bg-slate-800 cursor-pointer"
        >
          <X className="h-5 w-5" aria-hidden />
        </button>
      </div>
      <nav aria-label="Main navigation" className="flex-1 overflow-y-auto px-3 py-2 min-[500px]:max-sm:px-2">
        <ul className="flex flex-col gap-1">
          {NAV_ITEMS.map(({ label, to, icon: Icon }) => {
            const active = isNavActive(pathname, to);
            return (
              <li key={to}>
                <AppLink
                  to={to}
                  onClick={() => onClose(false)}
                  aria-current={active ? "page" : undefined}
                  title={label}
                  className={cn(
                    entry,
                    active
                      ? "bg-blue-600 text-white shadow-sm dark:bg-blue-500 dark:text-slate-950"
                      : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
                  )}
                >
                  <Icon className="h-5 w-5 shrink-0" aria-hidden />
                  <span className={entryLabel}>{label}</span>
                </AppLink>
              </li>
            );
          })}
          <ChatMenuLink
            className={cn(entry, "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white")}
            labelClassName={entryLabel}
          />
        </ul>
      </nav>
      <div className="flex items-center gap-3 border-t border-slate-200 p-4 dark:border-slate-800 min-[500px]:max-sm:justify-center min-[500px]:max-sm:p-2">
        <span
          aria-hidden
          className="flex h-10 w-10 shrink-0 min-[500px]:max-sm:hidden items-center justify-center rounded-full bg-blue-100 text-sm font-bold uppercase text-blue-700 dark:bg-blue-950 dark:text-blue-300"
        >
          {user?.username?.slice(0, 2) ?? "?"}
        </span>
        <div className="min-w-0 flex-1 min-[500px]:max-sm:sr-only">
          <p className="truncate text-sm font-semibold" data-testid="shell-username">
            {user?.username}
          </p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-300" data-testid="shell-email">
            {user?.userEmail}
          </p>
        </div>
        <button
          type="button"
          onClick={() => void onLogout()}
          aria-label="Log out"
          title="Log out"
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-600 transition-colors hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50 dark:bg-red-950/50 dark:text-red-400 dark:hover:bg-red-900/60 cursor-pointer"
        >
          <LogOut className="h-4 w-4" aria-hidden />
        </button>
      </div>
    </aside>
  );
}
