import { Suspense } from "react";
import { prerender } from "react-dom/static";
import HomepagePage from "./routes/homepage";
import { StatusLoading, StatusShell } from "./components/status/status-shell";

/**
 * Rendered at build time (web/vite.config.ts) into index.html's #root, so the landing page paints from the HTML alone,
 * before (and without) its script; web/main.tsx then hydrates it under the router. The landing page needs no router
 * or query context. The four Suspense boundaries stand for the router's own (around its matches, around the root
 * match and the root route's outlet, and around the landing's own match; the router wraps each match since screens
 * have a pending stand-in: web/lib/screen-loading.tsx): hydration pairs each with its marker, so the markup stays in place while the router settles. The
 * landing journey (e2e/landing.spec.ts) fails on any hydration error if the router's tree changes shape. `prerender`
 * (not renderToString) waits for the page's lazy below-the-fold section, so its markup is in the HTML too.
 */
export async function renderLanding(): Promise<string> {
  const { prelude } = await prerender(
    <Suspense fallback={null}>
      <Suspense fallback={null}>
        <Suspense fallback={null}>
          <Suspense fallback={null}>
            <HomepagePage />
          </Suspense>
        </Suspense>
      </Suspense>
    </Suspense>,
    // Every boundary inline in the markup: past this size Fizz would move a boundary's content out to the end of the
    // document with an inline script to swap it in (which the page's Content-Security-Policy hashes do not allow).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

/**
 * The public status page's frame (issue 32) with its loading line, for index.html's #status-shell: on #/status the
 * first-paint script shows it (styles.css) before any script ran; web/routes/status.tsx renders the same frame with the
 * figures and removes this copy. Plain markup: nothing hydrates it.
 */
export async function renderStatusShell(): Promise<string> {
  const { prelude } = await prerender(
    <StatusShell>
      <StatusLoading />
    </StatusShell>,
  );
  return new Response(prelude).text();
}
