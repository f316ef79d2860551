import { useEffect, useId, useRef, type ReactNode } from "react";
import { X } from "lucide-react";
import { cn } from "../../lib/cn";

/**
 * Where focus goes when a dialog (or the tour) closes: back to what had it before if that can still take it (the SMS
 * dialog's opener, Get Number, is disabled or gone by then), else to `fallback`, else to the page's main region.
 * Without this, focus fell to the page body and a keyboard user started again from the top. Left alone when something
 * outside a dialog already has focus.
 */
export function restoreFocus(opener: Element | null, fallback?: () => HTMLElement | null) {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest("dialog")) return;
  for (const el of [opener, fallback?.(), document.getElementById("content")]) {
    if (el instanceof HTMLElement && el !== document.body && el.isConnected && !el.matches(":disabled") && el.getClientRects().length) return el.focus();
  }
}

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert (the focus trap),
 * Escape and a click on the backdrop ask to close, and focus goes back to the opener on close (restoreFocus above),
 * also when the caller unmounts the dialog instead of closing it.
 * Closing is always a request through onOpenChange(false), so a caller can refuse (e.g. while a cancel is in flight).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
  showClose = true,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  showClose?: boolean;
  /** Where focus goes on close when the opener can no longer take it (default: the page's main region). */
  returnFocusTo?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);
  const returnFocusRef = useRef(returnFocusTo);
  returnFocusRef.current = returnFocusTo;
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    } else if (!open && dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
      // After React has re-rendered the page behind (the opener may come back enabled).
      const opener = openerRef.current;
      openerRef.current = null;
      setTimeout(() => restoreFocus(opener, returnFocusRef.current), 0);
    }
  }, [open]);

  // Unmounted while open (the caller dropped it instead of closing it): the browser drops focus to the body, so hand it
  // back the same way. (The element's own `open` flag is not reliable here: removal closes it.)
  useEffect(
    () => () => {
      const opener = openerRef.current;
      if (opener === null) return;
      setTimeout(() => restoreFocus(opener, returnFocusRef.current), 0);
    },
    [],
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        // Escape: let the caller decide instead of the browser closing behind React's back.
        e.preventDefault();
        onOpenChange(false);
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onOpenChange(false);
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-2xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl",
        // A width the caller gives replaces the default (cn joins, it does not merge: both would apply, and the
        // stylesheet's order, not the caller, would pick one; the Compare routes dialog stayed narrow so: issue 28).
        className?.includes("max-w-") ? null : "max-w-md",
        "backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100",
        className,
      )}
    >
      {open ? (
        <div className="flex max-h-[85vh] flex-col">
          <div className="flex items-start justify-between gap-4 p-5 pb-3">
            <div className="flex flex-col gap-1">
              <h2 id={titleId} className="text-lg font-semibold leading-tight">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="text-sm text-slate-600 dark:text-slate-400">
                  {description}
                </p>
              ) : null}
            </div>
            {showClose ? (
              <button
                type="button"
                onClick={() => onOpenChange(false)}
                aria-label="Close"
                className="-mr-1 -mt-1 rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100 cursor-pointer"
              >
                <X className="h-5 w-5" aria-hidden />
              </button>
            ) : null}
          </div>
          {/* Focusable: a long list (the tiers on a phone) scrolls from the keyboard too (axe: scrollable-region-focusable). */}
          <div tabIndex={0} className="overflow-y-auto rounded-md px-5 pb-5 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600">
            {children}
          </div>
          {footer ? <div className="flex justify-end gap-2 border-t border-slate-200 p-4 dark:border-slate-800">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
