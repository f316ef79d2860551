import { useMemo, useState } from "react";
import { useRateSettings, RATE_DEFAULTS } from "../api/payments";
import { useTransactions } from "../api/wallet";
import { RecentActivities } from "../components/dashboard/recent-activities";
import { HistoryExport } from "../components/orders/history-export";
import { historyTransactions } from "../components/dashboard/transactions";
import { CryptoDeposit } from "../components/payment/crypto-deposit";
import { NgnFundingForm } from "../components/payment/ngn-funding-form";
import { PendingPaymentsCard } from "../components/payment/pending-payments-card";
import { TransferDeposit } from "../components/payment/transfer-deposit";
import { Card } from "../components/ui/card";
import { LoadError } from "../components/ui/load-error";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { useSessionUser } from "../lib/use-session";
import { useDocumentTitle } from "../components/layout/logo";
import { useAppSearch } from "../components/layout/app-link";
import { backPath, prefillAmount } from "../components/payment/shortfall";
import { FUND_RETURN_PATHS } from "../components/payment/fund-return";
import { AppLink } from "../components/layout/app-link";

/** Fund Wallet: card/bank through Squad or crypto through NOWPayments, the pending card payments, the history. */
export default function PaymentPage() {
  useDocumentTitle("Fund Wallet");
  const [tab, setTab] = useState("ngn");
  const rate = useRateSettings();
  const settings = rate.data ?? RATE_DEFAULTS;
  const user = useSessionUser();
  const transactions = useTransactions();
  const history = useMemo(() => historyTransactions(transactions.data, user?.userId), [transactions.data, user?.userId]);
  // Issue 28: "Fund wallet" from a refused purchase arrives with the shortfall (?amount=880) to prefill the card amount.
  const search = useAppSearch<{ amount?: string; back?: string }>();
  const prefill = prefillAmount(search.amount);
  // Issue 43: from a purchase's shortfall, the screen to go back to (with its choice kept) once the wallet is funded.
  const back = backPath(search.back);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 py-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Fund Wallet</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">Top up in naira by card or bank transfer, or in crypto.</p>
        {back ? (
          <p className="mt-2 text-sm">
            <AppLink to={FUND_RETURN_PATHS[back].path} className="font-medium text-blue-700 underline underline-offset-2 dark:text-blue-400" data-testid="fund-return-link">
              Back to {FUND_RETURN_PATHS[back].label}
            </AppLink>{" "}
            <span className="text-slate-600 dark:text-slate-400">(your choice is kept; a card payment brings you back by itself)</span>
          </p>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <Card className="flex flex-col gap-4 p-4 min-[400px]:p-5">
          {rate.isError ? (
            // The forms keep working on the defaults (the server enforces the real minimum and rate), but say so.
            <LoadError what="today's minimums and crypto rate (the figures below may be out of date)" error={rate.error} onRetry={() => void rate.refetch()} />
          ) : null}
          <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-5">
            <TabsList label="Payment method" className="w-full md:w-auto">
              <TabsTrigger value="ngn" className="flex-1 md:flex-none">
                Pay in NGN
              </TabsTrigger>
              <TabsTrigger value="transfer" className="flex-1 md:flex-none">
                Pay by transfer
              </TabsTrigger>
              <TabsTrigger value="crypto" className="flex-1 md:flex-none">
                Pay in Crypto
              </TabsTrigger>
            </TabsList>
            <TabsContent value="ngn">
              <NgnFundingForm minimum={settings.squadmin} minimumLoading={rate.isPending} initialAmount={prefill} back={back} />
            </TabsContent>
            <TabsContent value="transfer">
              <TransferDeposit minimum={settings.squadmin} minimumLoading={rate.isPending} />
            </TabsContent>
            <TabsContent value="crypto">
              <CryptoDeposit settings={settings} settingsLoading={rate.isPending} />
            </TabsContent>
          </Tabs>
        </Card>
        <PendingPaymentsCard />
      </div>
      <RecentActivities rows={history} loading={transactions.isPending} />
      <HistoryExport />
    </div>
  );
}
