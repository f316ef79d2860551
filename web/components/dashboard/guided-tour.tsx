import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { X } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { recordTourClosed } from "../../api/tour";
import { toast } from "../../lib/toast";
import { Button } from "../ui/button";
import { restoreFocus } from "../ui/dialog";
import { TOUR_COMPLETED_KEY, TOUR_STEPS } from "./tour-steps";

const CARD_WIDTH = 320;
const CARD_HEIGHT = 200;
const MARGIN = 16;

type Box = { top: number; left: number; width: number; height: number };

/** Places the 320x200 card under the target (or above it when there is no room), 16 px from the viewport edges. */
function placeCard(target: Box | null): { top: number; left: number } {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const width = Math.min(CARD_WIDTH, vw - 2 * MARGIN);
  if (!target) return { top: Math.max(MARGIN, (vh - CARD_HEIGHT) / 2), left: Math.max(MARGIN, (vw - width) / 2) };
  const below = target.top + target.height + MARGIN;
  const above = target.top - CARD_HEIGHT - MARGIN;
  const top = below + CARD_HEIGHT <= vh - MARGIN ? below : above >= MARGIN ? above : Math.max(MARGIN, vh - CARD_HEIGHT - MARGIN);
  const left = Math.min(Math.max(MARGIN, target.left), vw - width - MARGIN);
  return { top, left };
}

function measure(target: string): Box | null {
  const el = document.querySelector<HTMLElement>(`[data-tour="${target}"]`);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, left: r.left, width: r.width, height: r.height };
}

/**
 * The dashboard's five-step tour. A modal card: focus moves into it on every step (the step title is announced), Tab
 * stays inside it, Escape or the close control ends it and focus goes back to the opener (or the Take Tour button);
 * closing or finishing records dashboardTourCompleted here and the account's tour flag on the server (issue 28).
 */
export function GuidedTour({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [step, setStep] = useState(0);
  const [box, setBox] = useState<Box | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<Element | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const current = TOUR_STEPS[step];
  const last = step === TOUR_STEPS.length - 1;

  useEffect(() => {
    if (open) {
      openerRef.current = document.activeElement;
      setStep(0);
    }
  }, [open]);

  const queryClient = useQueryClient();
  const close = useCallback(
    (completed: boolean) => {
      // Issue 28: closing ends the tour like Finish does, here and on the customer's other devices (server flag);
      // Take Tour still restarts it.
      localStorage.setItem(TOUR_COMPLETED_KEY, "true");
      recordTourClosed(queryClient);
      if (completed) {
        toast.success("Tour completed! You can restart it anytime from the help button.");
      } else {
        toast.info("You can restart the tour anytime from the help button.");
      }
      onClose();
      // Give focus back to where the customer was (the Take Tour button when they started it); when the tour opened
      // by itself on a first visit, to the Take Tour button, where it can be restarted.
      const opener = openerRef.current;
      setTimeout(() => restoreFocus(opener, () => document.querySelector<HTMLElement>("[data-tour-restart]")), 0);
    },
    [onClose, queryClient],
  );

  // Bring the step's widget into view, then follow it while the page scrolls or resizes.
  useLayoutEffect(() => {
    if (!open) return;
    document.querySelector(`[data-tour="${current.target}"]`)?.scrollIntoView({ block: "center", behavior: "auto" });
    const update = () => setBox(measure(current.target));
    update();
    window.addEventListener("resize", update);
    window.addEventListener("scroll", update, true);
    // Focus the card when it opens (and when the pressed control went away, e.g. Next became Finish); otherwise
    // keep focus on Previous/Next so keyboard users can step on, the live region reads the new step.
    if (!cardRef.current?.contains(document.activeElement)) cardRef.current?.focus();
    return () => {
      window.removeEventListener("resize", update);
      window.removeEventListener("scroll", update, true);
    };
  }, [open, current.target]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close(false);
      // Tab and Shift+Tab cycle inside the card while it is open (the page behind is dimmed and not part of the tour).
      if (e.key === "Tab" && cardRef.current) {
        const focusable = Array.from(cardRef.current.querySelectorAll<HTMLElement>("button:not([disabled])"));
        if (focusable.length === 0) return;
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        const inside = cardRef.current.contains(document.activeElement);
        if (e.shiftKey && (!inside || document.activeElement === first || document.activeElement === cardRef.current)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);

  if (!open) return null;
  const position = placeCard(box);

  return (
    <>
      <div className="pointer-events-none fixed inset-0 z-40 bg-slate-950/40" aria-hidden />
      {box ? (
        <div
          aria-hidden
          className="pointer-events-none fixed z-40 rounded-xl ring-4 ring-blue-500 ring-offset-2 ring-offset-transparent transition-all"
          style={{ top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 }}
        />
      ) : null}
      <div
        ref={cardRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
        data-testid="tour-card"
        className="fixed z-50 flex flex-col justify-between rounded-xl border border-slate-200 bg-white p-4 text-slate-900 shadow-2xl outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        style={{ top: position.top, left: position.left, width: `min(${CARD_WIDTH}px, calc(100vw - ${2 * MARGIN}px))`, minHeight: CARD_HEIGHT }}
      >
        <div className="flex items-start justify-between gap-3">
          <div aria-live="polite">
            <p className="text-xs font-medium text-blue-600 dark:text-blue-400">
              Step {step + 1} of {TOUR_STEPS.length}
            </p>
            <h2 id={titleId} className="mt-1 text-base font-semibold">
              {current.title}
            </h2>
          </div>
          <button
            type="button"
            onClick={() => close(false)}
            aria-label="Close tour"
            className="-mr-1 -mt-1 rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:bg-slate-800 cursor-pointer"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        </div>
        <p id={bodyId} className="text-sm text-slate-600 dark:text-slate-300">
          {current.body}
        </p>
        <div className="flex items-center justify-between gap-2">
          <div className="flex gap-1" aria-hidden>
            {TOUR_STEPS.map((s, i) => (
              <span key={s.target} className={`h-1.5 w-1.5 rounded-full ${i === step ? "bg-blue-600 dark:bg-blue-400" : "bg-slate-300 dark:bg-slate-600"}`} />
            ))}
          </div>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
              Previous
            </Button>
            {last ? (
              <Button size="sm" onClick={() => close(true)}>
                Finish
              </Button>
            ) : (
              <Button size="sm" onClick={() => setStep((s) => Math.min(TOUR_STEPS.length - 1, s + 1))}>
                Next
              </Button>
            )}
          </div>
        </div>
      </div>
    </>
  );
}
