import { useEffect, useMemo, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Bitcoin, Check, CheckCircle2, Copy, Timer } from "lucide-react";
import { toast } from "../../lib/toast";
import { naira } from "../../../schema/money";
import type { RateSettingsRow } from "../../../schema/settings";
import type { DepositOutcome, InvoiceAnswer } from "../../../schema/wallet";
import { useCreateInvoice, useInvoiceStatus, useMerchantCurrencies } from "../../api/payments";
import { refreshWallet } from "../../api/wallet";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { LoadError } from "../ui/load-error";
import { Spinner } from "../ui/spinner";
import { INVOICE_LIFETIME_MS } from "../../../schema/constants";
import { formatCountdown, isBelowCryptoMinimum, orderPayCurrencies } from "./payment-rules";
import { SimulatePayment } from "./simulate-payment";
import { writeClipboard } from "../../lib/clipboard";
import { QrCode } from "../settings/qr-code";

// Set only by the local builds of `npm start` and the tests (scripts/local-env.ts): a deployable build drops the
// sandbox tools entirely.
const SANDBOX_TOOLS = import.meta.env.VITE_SANDBOX_TOOLS === "1";

/** Spec timings: the minimum alert 3 s, the copy feedback 1 s, the 'Balance Updated' overlay 5 s. */
const MIN_ALERT_MS = 3000;
const COPIED_MS = 1000;
const BALANCE_UPDATED_MS = 5000;

// NOWPayments moves money through these before 'finished'; the spec names 'sending', the others mean the same to a
// customer: the coins arrived and are being confirmed.
const PROCESSING_STATUSES = ["confirming", "confirmed", "sending"];
const DEAD_STATUSES = ["failed", "expired", "refunded"];

/** The active invoice survives a reload of the tab (session storage), so a customer never loses the address. */
const ACTIVE_INVOICE_KEY = "active-invoice";
type ActiveInvoice = { invoice: InvoiceAnswer; expiresAt: number; usd: number };

function readActiveInvoice(): ActiveInvoice | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(ACTIVE_INVOICE_KEY) ?? "null") as ActiveInvoice | null;
    return stored && stored.expiresAt > Date.now() ? stored : null;
  } catch {
    return null;
  }
}

function CopyValue({ label, value, suffix }: { label: string; value: string; suffix?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await writeClipboard(value);
      setCopied(true);
    } catch {
      toast.error("Could not copy: select the text and copy it by hand.");
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-slate-600 dark:text-slate-400">{label}</span>
      <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800/60">
        <span className="min-w-0 flex-1 font-mono text-sm">
          <span className="break-all" data-testid={`invoice-${label.toLowerCase()}`}>
            {value}
          </span>
          {suffix ? <span className="whitespace-nowrap"> {suffix}</span> : null}
        </span>
        <Button variant="ghost" size="sm" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check className="h-4 w-4 text-emerald-700" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          <span aria-live="polite" className="max-[400px]:sr-only">
            {copied ? "Copied" : "Copy"}
          </span>
        </Button>
      </div>
    </div>
  );
}

/** A figure still loading: the same height as the figure, and named for screen readers. */
function LoadingFigure({ width }: { width: string }) {
  return (
    <span className="inline-flex">
      <span aria-hidden className={`inline-block h-5 animate-pulse rounded-md bg-slate-200 dark:bg-slate-800 ${width}`} />
      <span className="sr-only">Loading</span>
    </span>
  );
}

function Overlay({ kind }: { kind: "processing" | "updated" }) {
  return (
    <div role="status" aria-live="assertive" className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/60 p-4 backdrop-blur-sm">
      <div className="flex w-full max-w-sm flex-col items-center gap-4 rounded-2xl bg-white p-8 text-center shadow-2xl dark:bg-slate-900">
        {kind === "processing" ? (
          <>
            <Spinner className="h-12 w-12 text-blue-600 dark:text-blue-400" />
            <p className="text-lg font-semibold">Transaction being processed...</p>
          </>
        ) : (
          <>
            <CheckCircle2 className="h-14 w-14 text-emerald-500" aria-hidden />
            <p className="text-lg font-semibold">Balance Updated</p>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * An invoice whose coins arrived but did not simply settle it (part paid, another coin, an excess held): it is closed
 * (issue 43: it kept its countdown, QR code and "Send exactly the required amount", showed the raw status "finished",
 * and a second payment to it went to review). The card says what was credited and asks for a new invoice for more.
 */
function ClosedInvoiceCard({ outcome, usd, onClose }: { outcome: DepositOutcome; usd: number; onClose: () => void }) {
  const settled = outcome.state === "underpaid" || outcome.state === "support_credited";
  return (
    <Card className="flex flex-col gap-4 p-5" aria-labelledby="invoice-title" data-testid="invoice-closed">
      <h2 id="invoice-title" className="text-lg font-semibold">
        Invoice closed
      </h2>
      <Alert variant={outcome.state === "refused" ? "error" : settled ? "success" : "warning"} data-testid="invoice-outcome">
        {outcome.message}
      </Alert>
      <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="invoice-next">
        {settled && outcome.credited > 0 ? `${naira(outcome.credited)} credited; make a new invoice to pay more.` : `Make a new invoice to pay more.`} Do not send
        anything more to this ${usd} invoice's address: it no longer takes payments.
      </p>
      <Button onClick={onClose}>Make a new invoice</Button>
    </Card>
  );
}

/** NOWPayments' status words as a customer reads them (the raw word stays the badge's tooltip). */
const INVOICE_STATUS_WORDS: Record<string, string> = {
  waiting: "waiting for payment",
  confirming: "payment arriving",
  confirmed: "payment arriving",
  sending: "payment arriving",
  partially_paid: "part paid",
  finished: "paid",
  failed: "failed",
  expired: "expired",
  refunded: "refunded",
};
export const invoiceStatusWords = (status: string) => INVOICE_STATUS_WORDS[status] ?? status.replace(/_/g, " ");

function InvoiceCard({ active, onCancel, onExpired }: { active: ActiveInvoice; onCancel: () => void; onExpired: () => void }) {
  const [now, setNow] = useState(Date.now());
  const status = useInvoiceStatus(active.invoice.payment_id);
  const remaining = active.expiresAt - now;
  const outcome = status.data?.outcome ?? null;
  useEffect(() => {
    if (outcome) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [outcome]);
  useEffect(() => {
    if (remaining <= 0 && !outcome) onExpired();
  }, [remaining, onExpired, outcome]);
  if (outcome) return <ClosedInvoiceCard outcome={outcome} usd={active.usd} onClose={onCancel} />;
  const { invoice } = active;
  const currency = invoice.pay_currency.toUpperCase();
  const paymentStatus = status.data?.payment_status ?? "waiting";
  return (
    <Card className="flex flex-col gap-4 p-5" aria-labelledby="invoice-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="invoice-title" className="text-lg font-semibold">
          Invoice Created
        </h2>
        <span className="flex items-center gap-1.5 rounded-full bg-blue-50 px-3 py-1 font-mono text-sm font-semibold tabular-nums text-blue-700 dark:bg-blue-950 dark:text-blue-300">
          <Timer className="h-4 w-4" aria-hidden />
          <span role="timer" aria-label="Time left to pay" data-testid="invoice-countdown">
            {formatCountdown(remaining)}
          </span>
        </span>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        ${active.usd} deposit · status{" "}
        <Badge variant="secondary" data-testid="invoice-status" title={paymentStatus}>
          {status.isPending ? "checking..." : invoiceStatusWords(paymentStatus)}
        </Badge>
      </p>
      {status.isError ? (
        // The invoice itself is fine: only its status could not be read. Paying to the address below still counts.
        <LoadError what="this invoice's status (the amount and address below still work)" error={status.error} onRetry={() => void status.refetch()} />
      ) : null}
      <CopyValue label="Amount" value={String(invoice.pay_amount)} suffix={currency} />
      {invoice.network ? (
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-600 dark:text-slate-400">Network</span>
          <span className="text-sm font-semibold uppercase">{invoice.network}</span>
        </div>
      ) : null}
      <CopyValue label="Address" value={invoice.pay_address} />
      {/* Issue 28: a wallet app on another phone scans the address instead of retyping it. */}
      <QrCode value={invoice.pay_address} label={`QR code of the ${currency} address`} className="h-40 w-40 self-center rounded-lg" />
      {paymentStatus === "partially_paid" ? (
        <Alert variant="warning">Only part of the amount has arrived so far. What arrives is credited at this invoice's rate.</Alert>
      ) : null}
      <Alert variant="warning" className="flex items-start gap-2">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span>Send exactly the required amount to the address above. Payment will be confirmed automatically.</span>
      </Alert>
      {SANDBOX_TOOLS ? <SimulatePayment paymentId={invoice.payment_id} onPaid={() => void status.refetch()} /> : null}
      <Button variant="destructive" onClick={onCancel}>
        Cancel Invoice
      </Button>
    </Card>
  );
}

/**
 * Pay in Crypto: a USD amount and a coin make a NOWPayments invoice; its status is polled every 8 s until the server
 * says it is credited ('Balance Updated' for 5 s), it dies, or the 1,000,000 ms countdown runs out.
 */
export function CryptoDeposit({ settings, settingsLoading = false }: { settings: RateSettingsRow; settingsLoading?: boolean }) {
  const queryClient = useQueryClient();
  const currencies = useMerchantCurrencies();
  const createInvoice = useCreateInvoice();
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ amount?: string; currency?: string }>({});
  const [minAlert, setMinAlert] = useState(false);
  const [active, setActive] = useState<ActiveInvoice | null>(readActiveInvoice);
  const [overlay, setOverlay] = useState<"processing" | "updated" | null>(null);
  // An invoice that could not be created: said beside the button that retries it.
  const [createError, setCreateError] = useState<string | null>(null);
  const status = useInvoiceStatus(active?.invoice.payment_id ?? null);

  const options = useMemo(
    () => orderPayCurrencies(currencies.data).map((c) => ({ value: c.code, label: c.name ? `${c.code.toUpperCase()} · ${c.name}` : c.code.toUpperCase() })),
    [currencies.data],
  );

  useEffect(() => {
    if (!minAlert) return;
    const timer = setTimeout(() => setMinAlert(false), MIN_ALERT_MS);
    return () => clearTimeout(timer);
  }, [minAlert]);

  const clearInvoice = () => {
    sessionStorage.removeItem(ACTIVE_INVOICE_KEY);
    setActive(null);
    setOverlay(null);
    setAmount("");
    setCurrency(null);
  };

  // React to each status answer: processing overlay, credited (5 s 'Balance Updated' then reset), or a dead invoice.
  const paymentStatus = status.data?.payment_status;
  const credited = status.data?.credited === true;
  const explained = Boolean(status.data?.outcome);
  useEffect(() => {
    if (!active) return;
    if (credited && explained) {
      // Credited, but not as invoiced (an underpayment, an excess held): the card stays and says what happened.
      setOverlay(null);
      void refreshWallet(queryClient);
      return;
    }
    if (credited) {
      setOverlay("updated");
      void refreshWallet(queryClient);
      const timer = setTimeout(clearInvoice, BALANCE_UPDATED_MS);
      return () => clearTimeout(timer);
    }
    if (paymentStatus && PROCESSING_STATUSES.includes(paymentStatus)) setOverlay("processing");
    else setOverlay(null);
    if (paymentStatus && DEAD_STATUSES.includes(paymentStatus)) {
      toast.error(`This invoice is ${paymentStatus}: nothing was credited.`);
      clearInvoice();
    }
    // clearInvoice only touches state setters and storage.
  }, [active, credited, explained, paymentStatus, queryClient]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (active) return;
    const errors: { amount?: string; currency?: string } = {};
    if (!amount.trim()) errors.amount = "Enter an amount";
    if (!currency) errors.currency = "Choose a payment currency";
    setFieldError(errors);
    if (errors.amount || errors.currency) return;
    if (isBelowCryptoMinimum(amount, settings.cryptomin)) {
      setMinAlert(true);
      return;
    }
    setCreateError(null);
    try {
      const invoice = await createInvoice.mutateAsync({ priceAmount: Number(amount), payCurrency: currency! });
      const next = { invoice, expiresAt: Date.now() + INVOICE_LIFETIME_MS, usd: Number(amount) };
      sessionStorage.setItem(ACTIVE_INVOICE_KEY, JSON.stringify(next));
      setActive(next);
    } catch (err) {
      const message = err instanceof Error ? err.message : "Could not create the invoice. Please try again.";
      toast.error(message);
      setCreateError(`Could not create the invoice: ${message.replace(/[.!]\s*$/, "")}. Nothing was charged: press Create Invoice to try again.`);
    }
  };

  const usd = Number(amount);
  const estimate = Number.isFinite(usd) && usd > 0 ? usd * settings.crypto_rate : 0;

  return (
    <div className="flex flex-col gap-4">
      {overlay ? <Overlay kind={overlay} /> : null}
      {active ? (
        <InvoiceCard
          active={active}
          onCancel={clearInvoice}
          onExpired={() => {
            toast.info("The invoice expired. Create a new one to pay.");
            clearInvoice();
          }}
        />
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {/* Issue 28: the tab's amounts switch from naira to US dollars; say so before the customer types. */}
          <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="crypto-dollars-note">
            Crypto deposits are priced in US dollars ($), not naira: type dollars, and your wallet gets naira at the rate below.
          </p>
          <dl className="grid grid-cols-2 gap-3 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
            <div>
              <dt className="text-slate-600 dark:text-slate-400">Minimum</dt>
              <dd className="font-semibold">{settingsLoading ? <LoadingFigure width="w-12" /> : `$${settings.cryptomin}`}</dd>
            </div>
            <div>
              <dt className="text-slate-600 dark:text-slate-400">Rate</dt>
              <dd className="font-semibold">{settingsLoading ? <LoadingFigure width="w-24" /> : `${naira(settings.crypto_rate)} / $1`}</dd>
            </div>
          </dl>
          {minAlert ? <Alert variant="error">{`Minimum amount is $${settings.cryptomin}`}</Alert> : null}
          <Field label="Amount (USD)" error={fieldError.amount} hint={estimate > 0 ? `You get about ${naira(estimate)}` : undefined}>
            {(p) => (
              <Input
                {...p}
                name="usd-amount"
                type="number"
                inputMode="decimal"
                min={settings.cryptomin}
                step="0.01"
                placeholder={`${settings.cryptomin}`}
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setFieldError((f) => ({ ...f, amount: undefined }));
                }}
              />
            )}
          </Field>
          <Field label="Payment currency" error={fieldError.currency}>
            {(p) => (
              <Select
                {...p}
                searchable
                searchPlaceholder="Search currencies..."
                options={options}
                value={currency}
                loading={currencies.isPending}
                loadingText="Loading currencies..."
                emptyText={currencies.isError ? "Could not load currencies" : options.length === 0 ? "No coins available right now" : "No results found."}
                placeholder="Select a currency"
                onValueChange={(v) => {
                  setCurrency(v);
                  setFieldError((f) => ({ ...f, currency: undefined }));
                }}
              />
            )}
          </Field>
          {currencies.isError ? (
            <LoadError what="the coins you can pay with" error={currencies.error} onRetry={() => void currencies.refetch()} />
          ) : currencies.isSuccess && options.length === 0 ? (
            <Alert variant="warning" data-testid="crypto-no-coins">
              No coin can be paid with right now. Pay in NGN instead, or come back later.
            </Alert>
          ) : null}
          {createError ? <Alert variant="error">{createError}</Alert> : null}
          <Button type="submit" size="lg" disabled={createInvoice.isPending}>
            <Bitcoin className="h-5 w-5" aria-hidden />
            {createInvoice.isPending ? "Creating invoice..." : "Create Invoice"}
          </Button>
        </form>
      )}
    </div>
  );
}
