import { Suspense } from "react";
import { renderToString } from "react-dom/server";
import HomepagePage from "./routes/homepage";

/**
 * Rendered at build time (web/vite.config.ts) into index.html's #root, so the landing page paints from the HTML alone,
 * before (and without) its script; web/main.tsx then hydrates it under the router. The landing page needs no router
 * or query context. The two Suspense boundaries stand for the router's own (around its matches, and around the root
 * route's outlet): hydration pairs each with its marker, so the markup stays in place while the router settles. The
 * landing journey (e2e/landing.spec.ts) fails on any hydration error if the router's tree changes shape.
 */
export function renderLanding(): string {
  return renderToString(
    <Suspense fallback={null}>
      <Suspense fallback={null}>
        <HomepagePage />
      </Suspense>
    </Suspense>,
  );
}
