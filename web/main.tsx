// First: zod's no-eval mode must be set before any schema is built (web/lib/no-eval.ts, decision 021).
import "./lib/no-eval";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { router } from "./router";
import { isLandingHash } from "./lib/landing";
import "./styles.css";

// The entry holds React, the router and the styles only. Query, its persister and the toaster load with the first
// screen that needs them (web/app-providers.tsx); index.html applies the saved theme before first paint.
const container = document.getElementById("root")!;
// The status page's prerendered frame (index.html, shown by its first-paint script on #/status only) is dropped by the
// page once it renders; anywhere else, or once the visitor moves on before that, it goes now.
const dropStatusShell = () => {
  document.getElementById("status-shell")?.remove();
  document.documentElement.removeAttribute("data-status");
};
if (!document.documentElement.hasAttribute("data-status")) dropStatusShell();
else window.addEventListener("hashchange", dropStatusShell, { once: true });
/**
 * Marks the page as answering (`<html data-app-ready>`) once React has committed its first render or hydration. Until
 * then the prerendered landing is markup only: its links work, but a tap on a tab is not React's yet and does nothing
 * (decision 059: a journey that clicked as soon as the hero showed lost that tap on a loaded machine).
 */
function ReadyMark() {
  useEffect(() => document.documentElement.setAttribute("data-app-ready", ""), []);
  return null;
}
const app = (
  <StrictMode>
    <RouterProvider router={router} />
    <ReadyMark />
  </StrictMode>
);

// The build prerenders the landing page into #root (web/vite.config.ts). On the landing address the router first loads
// the landing chunk so its first render matches that markup, then hydrates it (no repaint, no blank frame); anywhere
// else the markup is dropped (styles.css kept it hidden) and the app renders from scratch.
if (container.firstElementChild && isLandingHash(location.hash)) {
  void router.load().then(() => hydrateRoot(container, app));
} else {
  container.replaceChildren();
  document.documentElement.removeAttribute("data-spa");
  createRoot(container).render(app);
}
