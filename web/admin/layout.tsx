import { useQuery } from "@tanstack/react-query";
import { useRouterState } from "@tanstack/react-router";
import { lazy, Suspense, type ComponentType } from "react";
import { meQuery, setShowTest, useShowTest } from "./api";
import "./admin.css";

const RealtimeBridge = lazy(() => import("../realtime/realtime-bridge").then((m) => ({ default: m.RealtimeBridge })));

/**
 * The console's pages, each its own lazy chunk. The router knows only #/admin/$ (web/router.tsx): the first segment
 * after /admin picks the page here, so the customer's entry carries one route for the whole console.
 */
const PAGES: { segment: string; label: string; page: ComponentType<{ rest: string }> }[] = [
  { segment: "", label: "Overview", page: lazy(() => import("./pages/overview")) },
  { segment: "customers", label: "Customers", page: lazy(() => import("./pages/customers")) },
  { segment: "deposits", label: "Deposits", page: lazy(() => import("./pages/deposits")) },
  { segment: "orders", label: "Orders", page: lazy(() => import("./pages/orders")) },
  { segment: "resellers", label: "Resellers", page: lazy(() => import("./pages/resellers")) },
  { segment: "prices", label: "Prices & content", page: lazy(() => import("./pages/prices")) },
  { segment: "messages", label: "Messages", page: lazy(() => import("./pages/messages")) },
  { segment: "status", label: "Status incidents", page: lazy(() => import("./pages/status-incidents")) },
  { segment: "deliveries", label: "Failed deliveries", page: lazy(() => import("./pages/dead-letters")) },
  { segment: "approvals", label: "Approvals", page: lazy(() => import("./pages/approvals")) },
  { segment: "audit", label: "Audit", page: lazy(() => import("./pages/audit")) },
];
const CustomerPage = lazy(() => import("./pages/customer"));
const ResellerSubaccountsPage = lazy(() => import("./pages/reseller-subaccounts"));

/**
 * The page for /admin/<segment>[/<rest>]: a customer's page is customers/<id>, a reseller's sub-accounts
 * resellers/<id>. Null for an unknown address.
 */
function pageFor(pathname: string): { segment: string; element: React.ReactNode } | null {
  const [segment = "", ...rest] = pathname.replace(/^\/admin\/?/, "").split("/").filter(Boolean);
  if (segment === "customers" && rest[0]) return { segment, element: <CustomerPage id={decodeURIComponent(rest[0])} /> };
  if (segment === "resellers" && rest[0] && rest.length === 1) return { segment, element: <ResellerSubaccountsPage id={decodeURIComponent(rest[0])} /> };
  const page = PAGES.find((p) => p.segment === segment);
  if (!page || rest.length > 0) return null;
  const Page = page.page;
  return { segment, element: <Page rest="" /> };
}

const NOT_FOUND = (
  <div className="p-8 text-center">
    <p className="text-lg font-semibold">Page not found</p>
    <a className="text-blue-600 underline" href="#/homepage/1">
      Go to the homepage
    </a>
  </div>
);

/**
 * The console's frame (#/admin/...). It asks /api/admin/me first: anyone the server does not accept as an operator
 * with two-factor on gets the same "Page not found" as any missing address, never a hint that a console exists.
 * The operator's own realtime room brings admin.changed, which refreshes every console query.
 */
export default function AdminLayout() {
  const me = useQuery(meQuery());
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const showTest = useShowTest();
  if (me.isPending) return <p className="p-8 text-center text-sm text-slate-500">Loading…</p>;
  const current = pageFor(pathname);
  if (me.isError || !current) return NOT_FOUND;
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Suspense fallback={null}>
        <RealtimeBridge />
      </Suspense>
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-900/95">
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 pt-3">
          <p className="font-semibold">Operator console</p>
          {/* Back to the customer's app: a real button-sized link, never cut off on a phone. */}
          <a
            href="#/dashboard/1"
            className="shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-blue-700 hover:bg-slate-100 dark:border-slate-700 dark:text-blue-300 dark:hover:bg-slate-800"
          >
            ← Back to the app
          </a>
          <p className="w-full min-w-0 truncate text-xs text-slate-600 dark:text-slate-400" title={me.data.email}>
            Signed in as {me.data.email}
          </p>
          <label className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
            <input type="checkbox" checked={showTest} onChange={(e) => setShowTest(e.target.checked)} />
            Show test activity (sandbox wallets)
          </label>
        </div>
        <nav aria-label="Console" className="flex gap-1 overflow-x-auto px-2 py-2">
          {PAGES.map((p) => {
            const active = p.segment === current.segment;
            return (
              <a
                key={p.segment}
                href={`#/admin/${p.segment}`}
                aria-current={active ? "page" : undefined}
                className={
                  active
                    ? "shrink-0 rounded-md bg-blue-600 px-3 py-1.5 text-sm text-white"
                    : "shrink-0 rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
                }
              >
                {p.label}
              </a>
            );
          })}
        </nav>
      </header>
      <main className="mx-auto flex max-w-6xl flex-col gap-4 p-3 sm:p-6">
        <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>{current.element}</Suspense>
      </main>
    </div>
  );
}
