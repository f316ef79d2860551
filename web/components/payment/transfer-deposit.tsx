import { useEffect, useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Building2, Check, CheckCircle2, Copy, Landmark, Timer } from "lucide-react";
import { naira } from "../../../schema/money";
import type { TransferView } from "../../../schema/transfers";
import { getActiveTransfer, useStaticAccount, useStartTransfer, useTransfer } from "../../api/transfers";
import * as queryKeys from "../../api/keys";
import { writeClipboard } from "../../lib/clipboard";
import { toast } from "../../lib/toast";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { formatCountdown } from "./payment-rules";

// Set only by the local builds of `npm start` and the tests: a deployable build carries no sandbox tools.
const SANDBOX_TOOLS = import.meta.env.VITE_SANDBOX_TOOLS === "1";
const COPIED_MS = 1000;
const SET_ASIDE_KEY = "transfer-set-aside";

/** The transfer whose card the customer closed with "New transfer": not resumed after a reload. */
function transferSetAside(): string | null {
  try {
    return localStorage.getItem(SET_ASIDE_KEY);
  } catch {
    return null;
  }
}
function setTransferSetAside(ref: string): void {
  try {
    localStorage.setItem(SET_ASIDE_KEY, ref);
  } catch {
    // Storage refused (private mode): the card comes back after a reload, nothing worse.
  }
}

/** One figure with a copy button that works on a phone (web/lib/clipboard.ts falls back where the async API is missing). */
function CopyRow({ label, value, display, testId }: { label: string; value: string; display?: string; testId: string }) {
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
        {/* One line: a 10-digit account number broken as "482019327 / 7" is misread (issue 43, 360 px). */}
        <span className="min-w-0 flex-1 whitespace-nowrap font-mono text-base font-semibold min-[400px]:text-lg min-[400px]:tracking-wide" data-testid={testId}>
          {display ?? value}
        </span>
        <Button variant="ghost" size="sm" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check className="h-4 w-4 text-emerald-700" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          <span aria-live="polite" className="max-[399px]:sr-only">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
    </div>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span className="text-xs font-medium text-slate-600 dark:text-slate-400">{label}</span>
      <span className="text-sm font-semibold">{value}</span>
    </div>
  );
}

/** Sandbox only: stands in for the customer's banking app (the page /sandbox/squad-transfers has more cases). */
function SendTestTransfer({ account }: { account: string }) {
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      const res = await fetch("/sandbox/squad-transfers/send", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ account_number: account, kind: "exact" }) });
      if (!res.ok) toast.error("The sandbox could not send the transfer.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed border-amber-400 p-3 text-sm">
      <span>Sandbox:</span>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void send()}>
        Send the exact amount
      </Button>
      <a className="underline" href={`/sandbox/squad-transfers?account=${encodeURIComponent(account)}`} target="_blank" rel="noreferrer">
        other transfers
      </a>
    </div>
  );
}

function TransferCard({ transfer, onDone }: { transfer: TransferView; onDone: () => void }) {
  const [now, setNow] = useState(Date.now());
  const status = useTransfer(transfer.ref);
  const t = status.data ?? transfer;
  const remaining = t.expires_at ? Date.parse(t.expires_at) - now : 0;
  const open = t.state === "waiting";
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [open]);
  return (
    <Card className="flex flex-col gap-4 p-4 min-[400px]:p-5" aria-labelledby="transfer-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="transfer-title" className="text-lg font-semibold">
          Transfer {naira(t.amount)}
        </h2>
        {open ? (
          <span className="flex items-center gap-1.5 rounded-full bg-blue-50 px-3 py-1 font-mono text-sm font-semibold tabular-nums text-blue-700 dark:bg-blue-950 dark:text-blue-300">
            <Timer className="h-4 w-4" aria-hidden />
            <span role="timer" aria-label="Time left to pay" data-testid="transfer-countdown">
              {formatCountdown(remaining)}
            </span>
          </span>
        ) : null}
      </div>
      {t.state === "credited" ? (
        <Alert variant="success" className="flex flex-col gap-1" role="status" data-testid="transfer-state">
          <span className="flex items-center gap-2 font-semibold">
            <CheckCircle2 className="h-5 w-5" aria-hidden />
            Credited {naira(t.credited_amount ?? t.amount)}
          </span>
          {/* Credited after a check (issue 43): what support decided, in its words. */}
          {t.detail ? <span className="text-sm">{t.detail}</span> : null}
        </Alert>
      ) : t.state === "refused" ? (
        <Alert variant="error" role="status" data-testid="transfer-state">
          {t.detail ?? "Support checked this transfer and could not credit it: no money moved."}
        </Alert>
      ) : t.state === "checking" ? (
        <Alert variant="warning" role="status" data-testid="transfer-state">
          {naira(t.checking_amount)} received, being checked. It will be credited once confirmed: nothing more to do.
        </Alert>
      ) : t.state === "expired" || (open && remaining <= 0) ? (
        <Alert variant="error" role="status" data-testid="transfer-state">
          This account number has expired. Do not send money to it: start a new transfer.
        </Alert>
      ) : t.state === "failed" ? (
        <Alert variant="error" role="status" data-testid="transfer-state">
          Squad could not give an account number. Please try again.
        </Alert>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300" role="status" data-testid="transfer-state">
          Waiting for your transfer. This page updates by itself the moment it arrives.
        </p>
      )}
      {open && remaining > 0 ? (
        <>
          <Detail label="Bank" value={t.bank_name ?? ""} />
          <CopyRow label="Account number" value={t.account_number ?? ""} testId="transfer-account-number" />
          <Detail label="Account name" value={t.account_name ?? ""} />
          <CopyRow label="Amount" value={String(t.amount)} display={naira(t.amount)} testId="transfer-amount" />
          <Alert variant="warning">Send exactly this amount, once, from your banking app before the time runs out. Another amount is not credited automatically.</Alert>
          {SANDBOX_TOOLS && t.account_number ? <SendTestTransfer account={t.account_number} /> : null}
        </>
      ) : null}
      {!open || remaining <= 0 ? (
        <Button variant="outline" onClick={onDone}>
          New transfer
        </Button>
      ) : null}
    </Card>
  );
}

function StaticAccountPanel() {
  const account = useStaticAccount();
  if (!account.data) return null;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700" data-testid="static-account">
      <p className="flex items-center gap-2 text-sm font-semibold">
        <Landmark className="h-4 w-4" aria-hidden /> Your permanent account number
      </p>
      <Detail label="Bank" value={account.data.bank_name} />
      <CopyRow label="Permanent account number" value={account.data.account_number} testId="static-account-number" />
      <Detail label="Account name" value={account.data.account_name} />
      <p className="text-xs text-slate-600 dark:text-slate-400">Any amount you transfer to it is added to your wallet by itself.</p>
    </div>
  );
}

/**
 * Pay by transfer: an amount (the card's minimum), then a Squad account number for exactly that amount with a
 * countdown. The card follows the payment live (the server pushes payment.credited through the customer's room) and
 * says "Credited ₦X"; there is no Verify button.
 */
export function TransferDeposit({ minimum, minimumLoading = false }: { minimum: number; minimumLoading?: boolean }) {
  const queryClient = useQueryClient();
  const start = useStartTransfer();
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [startError, setStartError] = useState<string | null>(null);
  const [current, setCurrent] = useState<TransferView | null>(null);
  // A decided transfer comes back after a reload until "New transfer" sets it aside (issue 43). Asked again on every
  // mount: the persisted cache (session storage) would otherwise keep the answer from before the transfer started.
  const active = useQuery({
    queryKey: [...queryKeys.invoices, "active-transfer"],
    queryFn: async () => {
      const resumed = await getActiveTransfer();
      return resumed && resumed.ref !== transferSetAside() ? resumed : null;
    },
    staleTime: 0,
  });
  const shown = current ?? active.data ?? null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = Number(amount);
    if (!amount.trim() || !Number.isFinite(value) || value <= 0) return setError("Enter an amount");
    if (!Number.isInteger(value)) return setError("Enter a whole naira amount");
    if (value < minimum) return setError(`min amount is ${naira(minimum)}`);
    setStartError(null);
    try {
      const transfer = await start.mutateAsync(value);
      queryClient.setQueryData(queryKeys.invoice(transfer.ref), transfer);
      setCurrent(transfer);
    } catch (err) {
      const message = err instanceof Error ? err.message : "Could not get an account number. Please try again.";
      setStartError(`Could not get an account number: ${message.replace(/[.!]\s*$/, "")}. Nothing was charged.`);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <StaticAccountPanel />
      {shown ? (
        <TransferCard
          transfer={shown}
          onDone={() => {
            setCurrent(null);
            setTransferSetAside(shown.ref);
            queryClient.setQueryData([...queryKeys.invoices, "active-transfer"], null);
          }}
        />
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <Field label="Amount (₦)" hint={minimumLoading ? "Checking today's minimum..." : `Min is ${naira(minimum)}`} error={error}>
            {(p) => (
              <Input
                {...p}
                name="transfer-amount"
                type="number"
                inputMode="numeric"
                min={minimum}
                step={1}
                placeholder={`${minimum}`}
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setError(undefined);
                }}
              />
            )}
          </Field>
          {startError ? <Alert variant="error">{startError}</Alert> : null}
          <Button type="submit" size="lg" disabled={start.isPending}>
            <Building2 className="h-5 w-5" aria-hidden />
            {start.isPending ? "Getting an account number..." : "Get an account number"}
          </Button>
        </form>
      )}
    </div>
  );
}
