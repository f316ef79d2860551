import { Outlet, useRouterState } from "@tanstack/react-router";
import { Menu } from "lucide-react";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useAccount } from "../../api/account-security";
import { loadChunk } from "../../lib/screen-loading";
import { BalanceChip } from "./balance-chip";
import { ChatButton } from "./chat-button";
import { SkipLink } from "./skip-link";
import { LogoMark } from "./logo";
import { SideNav } from "./side-nav";
import { ThemeSwitch } from "./theme-switch";
import { TierBadge } from "./tier-badge";

// The socket is not needed to show the screen (queries poll until it is up), so partysocket and the message handling
// (about 4 kB gzip) load after the shell instead of before it.
const RealtimeBridge = lazy(() => loadChunk(() => import("../../realtime/realtime-bridge")).then((m) => ({ default: m.RealtimeBridge })));
// The "confirm your e-mail" and password notices load after the shell for the same reason; the account state they read
// is asked for by the shell itself, with its other first requests (below), so a notice that has to show comes in
// before the screen is used rather than pushing it down under a customer's tap a moment later.
const VerifyEmailNotice = lazy(() => loadChunk(() => import("./verify-email-notice")).then((m) => ({ default: m.VerifyEmailNotice })));
const PasswordNotice = lazy(() => loadChunk(() => import("./password-notice")).then((m) => ({ default: m.PasswordNotice })));

/** The signed-in layout (spec section 2): fixed header, side navigation (a drawer under 500 px), content, chat button. */
export default function Shell() {
  const navId = useId();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // Starts the account request with the shell's first ones (the notices read it); reading nothing from it, the shell
  // never re-renders for it (TanStack Query tracks the fields a component reads).
  useAccount();

  // Any navigation (an entry, the browser's back button) closes the drawer.
  useEffect(() => setDrawerOpen(false), [pathname]);

  // Closing the drawer from itself (Escape, its close control, the backdrop) gives focus back to the menu button. Only
  // once the drawer is closed: until React re-renders, the button is inside the inert page and cannot take focus.
  const focusMenuOnClose = useRef(false);
  const closeDrawer = (backToMenu: boolean) => {
    focusMenuOnClose.current = backToMenu;
    setDrawerOpen(false);
  };
  useEffect(() => {
    if (drawerOpen || !focusMenuOnClose.current) return;
    focusMenuOnClose.current = false;
    menuButton.current?.focus();
  }, [drawerOpen]);

  // While the drawer is open: Escape closes it and focus returns to the menu button.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        focusMenuOnClose.current = true;
        setDrawerOpen(false);
      }
      // Tab wraps inside the open drawer (a modal): without it, focus left for what is not inert after it, such as a
      // toast's close button, and the drawer stayed open behind the reader's back.
      if (e.key === "Tab") {
        const nav = document.getElementById(navId);
        if (!nav) return;
        const stops = [...nav.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter(
          (el) => el.getClientRects().length > 0,
        );
        if (stops.length === 0) return;
        const [first, last] = [stops[0], stops[stops.length - 1]];
        const active = document.activeElement;
        const leaving = !nav.contains(active) || active === (e.shiftKey ? first : last);
        if (leaving) {
          e.preventDefault();
          (e.shiftKey ? last : first).focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    // Widening past the drawer's size closes it too (the page behind would stay inert).
    const onResize = () => window.innerWidth >= 500 && setDrawerOpen(false);
    window.addEventListener("resize", onResize);
    document.querySelector<HTMLElement>(`[id="${navId}"] button[aria-label="Close menu"]`)?.focus();
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
    };
  }, [drawerOpen, navId]);

  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Suspense fallback={null}>
        <RealtimeBridge />
      </Suspense>
      {/* While the drawer is open the page behind it is inert: out of the tab order and of screen readers' reach. */}
      <div inert={drawerOpen || undefined}>
        <SkipLink />
        <header className="fixed inset-x-0 top-0 z-20 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/90 px-3 backdrop-blur min-[500px]:left-[4.5rem] sm:left-[max(20%,13rem)] sm:gap-3 sm:px-6 dark:border-slate-800 dark:bg-slate-900/90">
          <button
            ref={menuButton}
            type="button"
            onClick={() => setDrawerOpen(true)}
            aria-label="Open menu"
            aria-controls={navId}
            aria-expanded={drawerOpen}
            className="-ml-1 rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 min-[500px]:hidden dark:text-slate-200 dark:hover:bg-slate-800 cursor-pointer"
          >
            <Menu className="h-6 w-6" aria-hidden />
          </button>
          <LogoMark className="h-7 w-7 max-[399px]:hidden min-[500px]:hidden" />
          <div className="ml-auto flex items-center gap-1.5 sm:gap-4">
            <BalanceChip />
            <TierBadge />
            <ThemeSwitch />
            {/* Under 768 px the chat button sits here: floating, it would cover the content of a narrow screen. */}
            <ChatButton placement="header" />
          </div>
        </header>

        <main
          id="content"
          tabIndex={-1}
          className="px-3 pb-24 pt-20 outline-none min-[500px]:ml-[4.5rem] sm:ml-[max(20%,13rem)] sm:px-6 sm:pt-22 md:pr-20"
        >
          <Suspense fallback={null}>
            <VerifyEmailNotice />
            <PasswordNotice />
          </Suspense>
          <Outlet />
        </main>
        <ChatButton placement="floating" />
      </div>

      {drawerOpen ? (
        <div aria-hidden className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-sm min-[500px]:hidden" onClick={() => closeDrawer(true)} />
      ) : null}
      <SideNav
        id={navId}
        open={drawerOpen}
        onClose={(backToMenu) => closeDrawer(backToMenu === true)}
      />
    </div>
  );
}
