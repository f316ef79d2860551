import { createHashHistory, createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from "@tanstack/react-router";
import { z } from "zod";
import { isSignedIn } from "./lib/session";

// Hash history as the spec says (#/dashboard/1). Every screen is loaded on demand so the landing page ships only itself.

const rootRoute = createRootRoute({ component: Outlet });

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    // Typed loosely: the route tree is still being declared here.
    throw redirect({ href: "/homepage/1" });
  },
});

const publicPage = (path: string, load: () => Promise<{ default: React.ComponentType }>, validateSearch?: z.ZodType) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: lazyRouteComponent(load),
    ...(validateSearch ? { validateSearch: (s: Record<string, unknown>) => validateSearch.parse(s) } : {}),
  });

const homepageRoute = publicPage("/homepage/$id", () => import("./routes/homepage"));
const signupRoute = publicPage("/signup/$id", () => import("./routes/signup"), z.object({ ref: z.string().optional().catch(undefined) }));
const loginRoute = publicPage("/login", () => import("./routes/login"));
const loginIdRoute = publicPage("/login/$id", () => import("./routes/login"));
const forgotRoute = publicPage("/forgot-password/$id", () => import("./routes/forgot-password"));
const resetRoute = publicPage(
  "/reset-password/$id",
  () => import("./routes/reset-password"),
  z.object({ token: z.string().optional().catch(undefined), id: z.string().optional().catch(undefined) }),
);
const privacyRoute = publicPage("/privacy/$id", () => import("./routes/privacy"));
const termsRoute = publicPage("/terms/$id", () => import("./routes/terms"));

/** The signed-in shell: a pathless layout whose guard sends visitors to login. */
const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "shell",
  beforeLoad: () => {
    if (!isSignedIn()) throw redirect({ href: "/login" });
  },
  component: lazyRouteComponent(() => import("./components/layout/shell")),
});

const shellPage = (path: string, load: () => Promise<{ default: React.ComponentType }>, validateSearch?: z.ZodType) =>
  createRoute({
    getParentRoute: () => shellRoute,
    path,
    component: lazyRouteComponent(load),
    ...(validateSearch ? { validateSearch: (s: Record<string, unknown>) => validateSearch.parse(s) } : {}),
  });

const dashboardRoute = shellPage(
  "/dashboard/$id",
  () => import("./routes/dashboard"),
  z.object({ reference: z.string().optional().catch(undefined) }),
);
const smsRoute = shellPage("/sms/$id", () => import("./routes/sms"));
const numberRoute = shellPage("/number/$id", () => import("./routes/number"));
const paymentRoute = shellPage("/payment/$id", () => import("./routes/payment"));
const esimRoute = shellPage("/esim/$id", () => import("./routes/coming-soon"));
const eplansRoute = shellPage("/e-plans/$id", () => import("./routes/coming-soon"));
const settingsRoute = shellPage("/settings/$id", () => import("./routes/settings"));

const routeTree = rootRoute.addChildren([
  indexRoute,
  homepageRoute,
  signupRoute,
  loginRoute,
  loginIdRoute,
  forgotRoute,
  resetRoute,
  privacyRoute,
  termsRoute,
  shellRoute.addChildren([dashboardRoute, smsRoute, numberRoute, paymentRoute, esimRoute, eplansRoute, settingsRoute]),
]);

export const router = createRouter({
  routeTree,
  history: createHashHistory(),
  defaultPreload: "intent",
  scrollRestoration: true,
  defaultNotFoundComponent: () => (
    <div className="p-8 text-center">
      <p className="text-lg font-semibold">Page not found</p>
      <a className="text-blue-600 underline" href="#/homepage/1">Go to the homepage</a>
    </div>
  ),
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
