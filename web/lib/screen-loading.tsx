import { lazyRouteComponent } from "@tanstack/react-router";

/**
 * How a screen's code arrives (issue 29, decision 052). Every screen is a lazy chunk; two things went wrong when its
 * request was slow or dropped (a loaded machine, the local server restarting: docs/reliability.md):
 *
 * - The router kept the previous screen up under the new address until the next chunk had loaded. At 375 px the
 *   drawer's Settings entry changed the URL and left the dashboard in place; after "Forgot password?" the login page's
 *   Email field stayed on screen, took what was typed, and was then replaced by an empty forgot-password form
 *   ("Email is required" at submit). `ScreenPending` now stands in at once (no delay, no minimum time), so the old
 *   screen never answers under the new URL; a screen whose chunk is already loaded replaces it in the same frame.
 * - TanStack Router's `lazyRouteComponent` answers a failed chunk ("Failed to fetch dynamically imported module") with
 *   `window.location.reload()`: the page reloaded a moment later, wiping whatever had been typed since, or stayed as it
 *   was for as long as the reload took. `loadChunk` fetches the chunk again instead (Chromium does not keep a failed
 *   dynamic import in its module map, so calling the importer again fetches it again); only when every try has failed
 *   does the error reach the router's reload, the last resort it was before.
 */
export const CHUNK_RETRY_DELAYS_MS = [250, 750, 1500, 3000, 5000] as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function loadChunk<T>(importer: () => Promise<T>, delays: readonly number[] = CHUNK_RETRY_DELAYS_MS, wait = pause): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await importer();
    } catch (err) {
      if (attempt >= delays.length) throw err;
      await wait(delays[attempt]);
    }
  }
}

/** A route's lazy component whose chunk is fetched again when its request failed (`lazyRouteComponent` + `loadChunk`). */
export function lazyScreen(importer: Parameters<typeof lazyRouteComponent>[0], delays?: readonly number[]) {
  return lazyRouteComponent(() => loadChunk(importer, delays));
}

/** Stands in for a screen whose chunk is on its way. Plain markup: it is part of the entry chunk (the landing's budget). */
export function ScreenPending() {
  return (
    <div role="status" aria-live="polite" className="p-8 text-center text-sm text-slate-600 dark:text-slate-400">
      Loading…
    </div>
  );
}

/** The router's pending options: the stand-in at once, for no minimum time. */
export const SCREEN_PENDING = { defaultPendingComponent: ScreenPending, defaultPendingMs: 0, defaultPendingMinMs: 0 } as const;
