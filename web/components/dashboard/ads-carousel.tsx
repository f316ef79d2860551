import { useEffect, useRef, useState } from "react";
import { ArrowRight, Megaphone } from "lucide-react";
import type { Ad } from "../../../schema/settings";
import { useAds } from "../../api/content";
import { cn } from "../../lib/cn";
import { Button } from "../ui/button";
import { Skeleton } from "../ui/skeleton";
import { collapseSlashes } from "./ads";

/** Spec: the carousel auto-advances every 3 s and loops. */
export const AD_ADVANCE_MS = 3000;

// The operator stores a background class per ad. Tailwind only emits classes it finds in source, so the ones the
// operator may pick are listed here; an unknown class falls back to the first.
/**
 * The operator's background names, drawn one shade darker where white text on the named shade is below 4.5:1 (white on
 * emerald-600 is 3.8:1): the slide keeps the operator's colour family and stays readable.
 */
const SHOWN_BACKGROUND: Record<string, string> = {
  "bg-emerald-600": "bg-emerald-700",
  "bg-rose-600": "bg-rose-700",
  "bg-amber-600": "bg-amber-700",
  "bg-sky-700": "bg-sky-700",
  "bg-violet-700": "bg-violet-700",
  "bg-blue-700": "bg-blue-700",
  "bg-slate-800": "bg-slate-800",
  "bg-teal-700": "bg-teal-700",
  "bg-indigo-700": "bg-indigo-700",
};
export const AD_BACKGROUNDS = ["bg-emerald-600", "bg-sky-700", "bg-violet-700", "bg-blue-700", "bg-rose-600", "bg-amber-600", "bg-slate-800", "bg-teal-700", "bg-indigo-700"];

function AdSlide({ ad, index, total }: { ad: Ad; index: number; total: number }) {
  const [imageFailed, setImageFailed] = useState(false);
  const bg = SHOWN_BACKGROUND[AD_BACKGROUNDS.includes(ad.bg) ? ad.bg : AD_BACKGROUNDS[0]];
  return (
    <div role="group" aria-roledescription="slide" aria-label={`${index + 1} of ${total}`} className="w-full shrink-0 snap-start">
      <a
        href={ad.link}
        className={cn(
          // At least the spec'd height, growing with the text: a narrow phone shows the whole offer, never "...".
          "flex h-full min-h-32 w-full items-center gap-3 rounded-xl px-4 py-3 text-white focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-white sm:min-h-36 sm:gap-4 sm:px-6",
          bg,
        )}
      >
        <span className="flex h-14 w-14 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-white/15 min-[400px]:h-20 min-[400px]:w-20 sm:h-24 sm:w-24">
          {imageFailed ? (
            <Megaphone className="h-10 w-10" aria-hidden />
          ) : (
            <img src={collapseSlashes(ad.url)} alt="" className="h-full w-full object-contain" loading="lazy" onError={() => setImageFailed(true)} />
          )}
        </span>
        <span className="flex min-w-0 flex-1 items-center justify-between gap-3">
          <span className="text-base font-semibold leading-snug break-words sm:text-lg">{ad.content}</span>
          <ArrowRight className="h-6 w-6 shrink-0" aria-hidden />
        </span>
      </a>
    </div>
  );
}

/**
 * Snap-scrolling ads that advance every 3 s and wrap to the first. Advancing pauses while the pointer or keyboard
 * focus is inside (so a slide can be read and its link reached); slides jump without animation for people who ask for
 * reduced motion. `preview` shows the given ads instead of the served ones (the console's live preview).
 */
export function AdsCarousel({ preview }: { preview?: Ad[] } = {}) {
  const served = useAds();
  // The operator console previews unsaved ads in the very carousel customers see.
  const ads = preview ? { data: preview, isPending: false, isError: false, refetch: served.refetch } : served;
  const trackRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  // The interval reads the latest index and scroller without restarting on every slide change.
  const activeRef = useRef(0);
  const [paused, setPaused] = useState(false);
  const slides = ads.data ?? [];
  const count = slides.length;

  // Follow manual swipes/scrolls so auto-advance continues from what the customer sees.
  const onScroll = () => {
    const track = trackRef.current;
    if (!track || track.clientWidth === 0) return;
    activeRef.current = Math.round(track.scrollLeft / track.clientWidth);
    setActive(activeRef.current);
  };

  const goTo = (index: number) => {
    const track = trackRef.current;
    if (!track) return;
    const reduce = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: index * track.clientWidth, behavior: reduce ? "auto" : "smooth" });
    activeRef.current = index;
    setActive(index);
  };

  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = setInterval(() => goTo((activeRef.current + 1) % count), AD_ADVANCE_MS);
    return () => clearInterval(timer);
    // goTo touches only refs and a state setter, so the first render's copy stays correct.
  }, [count, paused]);

  if (ads.isPending) {
    return (
      <div className="flex gap-3 overflow-hidden" aria-busy="true" aria-label="Loading ads">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} data-testid="ad-placeholder" className="h-32 w-full shrink-0 rounded-xl sm:h-36 sm:w-1/3 sm:shrink" />
        ))}
      </div>
    );
  }

  if (ads.isError) {
    return (
      <div role="alert" className="flex h-32 flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-slate-300 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
        <p>Failed to load ads.</p>
        <Button variant="outline" size="sm" onClick={() => void ads.refetch()}>
          Retry
        </Button>
      </div>
    );
  }

  if (count === 0) return null;

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Offers"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPaused(false);
      }}
      className="flex flex-col gap-2"
    >
      <div
        ref={trackRef}
        data-testid="ads-track"
        data-active-index={active}
        onScroll={onScroll}
        aria-live={paused ? "polite" : "off"}
        className="flex snap-x snap-mandatory overflow-x-auto rounded-xl [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {slides.map((ad, i) => (
          <AdSlide key={ad.id} ad={ad} index={i} total={count} />
        ))}
      </div>
      {count > 1 ? (
        <div className="flex justify-center">
          {slides.map((ad, i) => (
            <button
              key={ad.id}
              type="button"
              aria-label={`Show offer ${i + 1}`}
              aria-current={i === active ? "true" : undefined}
              onClick={() => goTo(i)}
              // A 24 px target (WCAG 2.2 target size) around the small drawn dot.
              className="inline-flex h-6 min-w-6 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-blue-600 cursor-pointer"
            >
              <span
                aria-hidden
                className={cn(
                  "h-2 rounded-full transition-all",
                  i === active ? "w-6 bg-blue-600 dark:bg-blue-400" : "w-2 bg-slate-400 dark:bg-slate-500",
                )}
              />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
