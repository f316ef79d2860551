import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  parseSearchWith,
  redirect,
  stringifySearchWith,
} from "@tanstack/react-router";
import { lazyScreen as lazyRouteComponent, SCREEN_PENDING } from "./lib/screen-loading";
import { isSignedIn } from "./lib/session";

// Hash history as the spec says (#/dashboard/1). Every screen is a lazy chunk so the landing page ships only itself;
// a chunk whose request failed is fetched again, and a stand-in shows while it comes (web/lib/screen-loading.tsx).
// Search params are plain strings (a numeric ?reference= must stay a string); each route reads the ones it knows.

type Search = Record<string, unknown>;
const optionalString = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined);
const stringifySearch = stringifySearchWith((value) => (typeof value === "string" ? value : JSON.stringify(value)));

const rootRoute = createRootRoute({ component: Outlet });

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/homepage/$id", params: { id: "1" } });
  },
});

/**
 * A screen whose address carries the spec's "/1" answers without it too (issue 43: `#/prices` said "Page not found"
 * while `#/status` worked): a bare name becomes `/<name>/1`, its search kept. Static paths (/login, /status, ...) rank
 * above this one, so only a bare name reaches it; one that is no screen is "Page not found" at `/<name>/1`.
 */
const bareScreenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/$screen",
  beforeLoad: ({ params, search }) => {
    throw redirect({ href: `/${params.screen}/1${stringifySearch(search as Search)}`, replace: true });
  },
});

/**
 * Every screen that talks to the API sits under this pathless lazy layout, which provides TanStack Query (persisted to
 * session storage) and the toaster; the landing, privacy and terms pages sit outside it so they load without them.
 */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  component: lazyRouteComponent(() => import("./app-providers")),
});

const homepageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/homepage/$id",
  component: lazyRouteComponent(() => import("./routes/homepage")),
});
const signupRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/signup/$id",
  validateSearch: (s: Search): { ref?: string } => ({ ref: optionalString(s.ref) }),
  component: lazyRouteComponent(() => import("./routes/signup")),
});
const loginRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/login",
  component: lazyRouteComponent(() => import("./routes/login")),
});
const loginIdRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/login/$id",
  component: lazyRouteComponent(() => import("./routes/login")),
});
const forgotRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/forgot-password/$id",
  component: lazyRouteComponent(() => import("./routes/forgot-password")),
});
const resetRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/reset-password/$id",
  validateSearch: (s: Search): { token?: string; id?: string } => ({ token: optionalString(s.token), id: optionalString(s.id) }),
  component: lazyRouteComponent(() => import("./routes/reset-password")),
});
const verifyEmailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/verify-email",
  validateSearch: (s: Search): { token?: string; id?: string } => ({ token: optionalString(s.token), id: optionalString(s.id) }),
  component: lazyRouteComponent(() => import("./routes/verify-email")),
});
/** The developer API reference (public: evaluating the API needs no account), read from /api/v1/openapi.json. */
const developersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/developers",
  component: lazyRouteComponent(() => import("./routes/developers")),
});
/** Issue 28: prices before sign-up (the landing's "See all services"); its own lazy chunk, under the data layer. */
const pricesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/prices/$id",
  component: lazyRouteComponent(() => import("./routes/prices")),
});
/** Issue 32: the public status page (no sign-in); its own lazy chunk, under the data layer; its frame is prerendered. */
const statusRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/status",
  component: lazyRouteComponent(() => import("./routes/status")),
});
const privacyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/privacy/$id",
  component: lazyRouteComponent(() => import("./routes/privacy")),
});
const termsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/terms/$id",
  validateSearch: (s: Search): { section?: string } => ({ section: optionalString(s.section) }),
  component: lazyRouteComponent(() => import("./routes/terms")),
});

/** The signed-in shell: a pathless layout whose guard sends visitors to login. */
const shellRoute = createRoute({
  getParentRoute: () => appRoute,
  id: "shell",
  beforeLoad: () => {
    if (!isSignedIn()) throw redirect({ to: "/login" });
  },
  component: lazyRouteComponent(() => import("./components/layout/shell")),
});

const dashboardRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/dashboard/$id",
  validateSearch: (s: Search): { reference?: string } => ({ reference: optionalString(s.reference) }),
  component: lazyRouteComponent(() => import("./routes/dashboard")),
});
const smsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/sms/$id",
  component: lazyRouteComponent(() => import("./routes/sms")),
});
const numberRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/number/$id",
  component: lazyRouteComponent(() => import("./routes/number")),
});
const paymentRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/payment/$id",
  component: lazyRouteComponent(() => import("./routes/payment")),
});
const esimRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/esim/$id",
  component: lazyRouteComponent(() => import("./routes/coming-soon")),
});
const eplansRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/e-plans/$id",
  component: lazyRouteComponent(() => import("./routes/coming-soon")),
});
/** Issue 46: the partner dashboard (resellers' sub-accounts); its own lazy chunk. */
const partnerRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/partner/$id",
  component: lazyRouteComponent(() => import("./routes/partner")),
});
const settingsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: "/settings/$id",
  component: lazyRouteComponent(() => import("./routes/settings")),
});

/**
 * The operator console (#/admin/...): ONE splat route whose lazy layout picks the page itself (web/admin/layout.tsx),
 * so the entry carries a single route and import for the whole console; its pages, chunks and stylesheet load only
 * there (bench/web-weight.ts proves none is on the customer's path). The server decides who is an operator; the
 * layout shows "Page not found" to anyone else.
 */
const adminRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/admin/$",
  beforeLoad: () => {
    if (!isSignedIn()) throw redirect({ to: "/login" });
  },
  component: lazyRouteComponent(() => import("./admin/layout")),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  bareScreenRoute,
  homepageRoute,
  privacyRoute,
  termsRoute,
  appRoute.addChildren([
    signupRoute,
    loginRoute,
    loginIdRoute,
    forgotRoute,
    resetRoute,
    verifyEmailRoute,
    developersRoute,
    pricesRoute,
    statusRoute,
    shellRoute.addChildren([dashboardRoute, smsRoute, numberRoute, paymentRoute, esimRoute, eplansRoute, settingsRoute, partnerRoute]),
    adminRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  history: createHashHistory(),
  parseSearch: parseSearchWith((value) => value),
  stringifySearch,
  defaultPreload: "intent",
  ...SCREEN_PENDING,
  scrollRestoration: true,
  defaultNotFoundComponent: () => (
    <div className="p-8 text-center">
      <p className="text-lg font-semibold">Page not found</p>
      <a className="text-blue-600 underline" href="#/homepage/1">
        Go to the homepage
      </a>
    </div>
  ),
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
