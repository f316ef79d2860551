import { useEffect } from "react";
import { AppLink } from "./app-link";
import { cn } from "../../lib/cn";

export const PRODUCT_NAME = "VirtualNum";

/** "Receive SMS · VirtualNum": the browser tab (and history, and screen readers on navigation) names each screen. */
export function documentTitle(screen: string | null): string {
  return screen ? `${screen} · ${PRODUCT_NAME}` : `${PRODUCT_NAME} — Premium Virtual SMS Authentication`;
}

/** Sets the tab title for a screen (null: the landing page's). Kept beside the product name: no chunk of its own. */
export function useDocumentTitle(screen: string | null): void {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
}

/** The mark: a speech bubble with a signal dot, drawn inline so no request is needed. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn("h-8 w-8", className)} aria-hidden>
      <rect width="32" height="32" rx="8" className="fill-blue-600 dark:fill-blue-500" />
      <path d="M9 10h14a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2h-7l-4 3.5V21H9a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2z" fill="#fff" />
      <circle cx="12" cy="15.5" r="1.4" className="fill-blue-600 dark:fill-blue-500" />
      <circle cx="16" cy="15.5" r="1.4" className="fill-blue-600 dark:fill-blue-500" />
      <circle cx="20" cy="15.5" r="1.4" className="fill-blue-600 dark:fill-blue-500" />
    </svg>
  );
}

/** The logo, linking to the landing page (spec section 2). */
export function Logo({ className }: { className?: string }) {
  return (
    <AppLink to="/homepage/1"
      className={cn("inline-flex items-center gap-2 rounded-md font-bold tracking-tight text-slate-900 dark:text-white", className)}
    >
      <LogoMark />
      <span className="text-lg">{PRODUCT_NAME}</span>
    </AppLink>
  );
}
