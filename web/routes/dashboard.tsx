import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useRouter, useRouterState } from "@tanstack/react-router";
import { CircleHelp } from "lucide-react";
import { useOrders } from "../api/orders";
import { useBalance, useTransactions } from "../api/wallet";
import { AdsCarousel } from "../components/dashboard/ads-carousel";
import { FullScreenLoader } from "../components/dashboard/full-screen-loader";
import { ChannelTile, ReferralTile } from "../components/dashboard/link-tiles";
import { SpendingChart } from "../components/dashboard/spending-chart";
import { BalanceCard, CountCard } from "../components/dashboard/summary-cards";
import { FIRST_VISIT_KEY, shouldAutoOpenTour, TOUR_AUTO_OPEN_DELAY_MS, TOUR_COMPLETED_KEY } from "../components/dashboard/tour-steps";
import { useAccount } from "../api/account-security";
import { historyTransactions } from "../components/dashboard/transactions";
import { useCardPaymentReturn } from "../components/payment/use-card-payment-return";
import { Button } from "../components/ui/button";
import { Card, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useSessionUser } from "../lib/use-session";
import { useDocumentTitle } from "../components/layout/logo";

// Most visits never open the tour: its code (about 1.7 kB gzip) loads the first time it opens.
const GuidedTour = lazy(() => import("../components/dashboard/guided-tour").then((m) => ({ default: m.GuidedTour })));
// The history list sits last on the page (below the fold on a phone) and brings the filter menu with it: it loads after
// the first paint (about 2 kB gzip off the dashboard's budget), with a placeholder of the same shape meanwhile.
const RecentActivities = lazy(() => import("../components/dashboard/recent-activities").then((m) => ({ default: m.RecentActivities })));

/** What shows while the history's code loads: the card's title and rows of skeleton, where the tour can point. */
export function RecentActivitiesPlaceholder() {
  return (
    <Card data-tour="history" className="flex flex-col gap-3 p-5" aria-busy="true">
      <CardTitle>Recent Activities</CardTitle>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </Card>
  );
}

/** The spec's fallback when the orders list is empty: the purchased count last stored (a number or { length }). */
function storedPurchaseCount(): number {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem("arr-length") ?? "0");
    const n = typeof raw === "number" ? raw : Number((raw as { length?: unknown })?.length ?? 0);
    return Number.isFinite(n) ? n : 0;
  } catch {
    return 0;
  }
}

/**
 * The operator console's ad preview (web/admin/pages/prices.tsx) takes the carousel from this module, not from its own
 * file: importing the component directly from both places made the bundler cut it into a chunk of its own, which the
 * dashboard then paid for (about 0.8 kB gzip: one more request). This way the console reuses the dashboard's chunk and
 * the customer's path carries no byte for the console.
 */
export { AD_BACKGROUNDS, AdsCarousel } from "../components/dashboard/ads-carousel";

export default function DashboardPage() {
  useDocumentTitle("Dashboard");
  const user = useSessionUser();
  // Read the raw text: the router's JSON search parsing would turn an all-digit reference into a number.
  const reference = useRouterState({ select: (s) => new URLSearchParams(s.location.searchStr).get("reference") ?? undefined });
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const router = useRouter();
  const balance = useBalance();
  const transactions = useTransactions();
  const orders = useOrders();
  const [tourOpen, setTourOpen] = useState(false);
  // Once opened, the tour stays mounted so closing it runs its own close handling (focus return, toasts).
  const [tourMounted, setTourMounted] = useState(false);
  useEffect(() => {
    if (tourOpen) setTourMounted(true);
  }, [tourOpen]);

  const clearReference = useCallback(() => {
    router.history.replace(pathname);
  }, [router, pathname]);
  // Issue 43: a payment started from a purchase's shortfall goes back to that screen (its choice kept) once confirmed.
  const returnTo = useCallback((path: string) => void router.navigate({ href: path, replace: true }), [router]);
  const verifying = useCardPaymentReturn(reference, clearReference, returnTo);

  const history = useMemo(() => historyTransactions(transactions.data, user?.userId), [transactions.data, user?.userId]);
  const smsCount = orders.data?.filter((o) => o.kind === "sms").length ?? 0;
  const rentalCount = orders.data?.filter((o) => o.kind === "rental").length ?? 0;
  const purchaseCount = smsCount > 0 || (orders.data?.length ?? 0) > 0 ? smsCount : storedPurchaseCount();

  const firstLoad = balance.isPending || transactions.isPending;
  // Issue 28: a tour closed on another device stays closed here (the account's server-side flag).
  const account = useAccount();
  const accountKnown = !account.isPending;
  const closedElsewhere = account.data?.tour_closed === true;

  // First visit only: both flags absent. The visit is recorded at once so a reload before the second is not "first".
  useEffect(() => {
    if (firstLoad || verifying || !accountKnown) return;
    if (closedElsewhere) {
      localStorage.setItem(TOUR_COMPLETED_KEY, "true");
      return;
    }
    if (!shouldAutoOpenTour()) return;
    localStorage.setItem(FIRST_VISIT_KEY, "true");
    const timer = setTimeout(() => setTourOpen(true), TOUR_AUTO_OPEN_DELAY_MS);
    return () => {
      clearTimeout(timer);
      // Unmounted (or re-run by StrictMode) before it opened: this visit has not shown the tour yet.
      localStorage.removeItem(FIRST_VISIT_KEY);
    };
  }, [firstLoad, verifying, accountKnown, closedElsewhere]);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-4 sm:p-6">
      {verifying ? <FullScreenLoader text="Verifying payment..." /> : firstLoad ? <FullScreenLoader text="Loading your dashboard..." /> : null}

      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">
          Welcome{user?.username ? `, ${user.username}` : ""}
        </h1>
        <Button variant="outline" onClick={() => setTourOpen(true)} data-tour-restart>
          <CircleHelp className="h-4 w-4" aria-hidden /> Take Tour
        </Button>
      </div>

      <AdsCarousel />

      <div className="grid gap-4 min-[600px]:grid-cols-3">
        <BalanceCard balance={balance.data} loading={balance.isPending} />
        <CountCard title="Purchase Number" count={purchaseCount} loading={orders.isPending} tour="purchase" to="/sms/1" actionLabel="Receive SMS" kind="sms" />
        <CountCard title="Rented Numbers" count={rentalCount} loading={orders.isPending} tour="rent" to="/number/1" actionLabel="Rent Number" kind="rental" />
      </div>

      <div className="grid gap-4 min-[600px]:grid-cols-2">
        <ReferralTile />
        <ChannelTile />
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] lg:items-start">
        <SpendingChart rows={history} />
        <Suspense fallback={<RecentActivitiesPlaceholder />}>
          <RecentActivities rows={history} loading={transactions.isPending} />
        </Suspense>
      </div>

      {tourMounted || tourOpen ? (
        <Suspense fallback={null}>
          <GuidedTour open={tourOpen} onClose={() => setTourOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
