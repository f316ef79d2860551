import { useQuery } from "@tanstack/react-query";
import { Link, Outlet } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { meQuery } from "./api";
import "./admin.css";

const RealtimeBridge = lazy(() => import("../realtime/realtime-bridge").then((m) => ({ default: m.RealtimeBridge })));

const PAGES = [
  { to: "/admin", label: "Overview" },
  { to: "/admin/customers", label: "Customers" },
  { to: "/admin/deposits", label: "Deposits" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/prices", label: "Prices & content" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/audit", label: "Audit" },
] as const;

/**
 * The console's frame (#/admin/...). It asks /api/admin/me first: anyone the server does not accept as an operator
 * with two-factor on gets the same "Page not found" as any missing address, never a hint that a console exists.
 * The operator's own realtime room brings admin.changed, which refreshes every console query.
 */
export default function AdminLayout() {
  const me = useQuery(meQuery());
  if (me.isPending) return <p className="p-8 text-center text-sm text-slate-500">Loading…</p>;
  if (me.isError) {
    return (
      <div className="p-8 text-center">
        <p className="text-lg font-semibold">Page not found</p>
        <a className="text-blue-600 underline" href="#/homepage/1">
          Go to the homepage
        </a>
      </div>
    );
  }
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Suspense fallback={null}>
        <RealtimeBridge />
      </Suspense>
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-900/95">
        <div className="flex items-center justify-between gap-2 px-4 pt-3">
          <p className="font-semibold">Operator console</p>
          <p className="truncate text-xs text-slate-500" title={me.data.email}>
            {me.data.email} · <a href="#/dashboard/1" className="underline">App</a>
          </p>
        </div>
        <nav aria-label="Console" className="flex gap-1 overflow-x-auto px-2 py-2">
          {PAGES.map((p) => (
            <Link
              key={p.to}
              to={p.to}
              activeOptions={{ exact: p.to === "/admin" }}
              className="shrink-0 rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
              activeProps={{ className: "bg-blue-600 text-white hover:bg-blue-600 dark:text-white", "aria-current": "page" }}
            >
              {p.label}
            </Link>
          ))}
        </nav>
      </header>
      <main className="mx-auto flex max-w-6xl flex-col gap-4 p-3 sm:p-6">
        <Outlet />
      </main>
    </div>
  );
}
