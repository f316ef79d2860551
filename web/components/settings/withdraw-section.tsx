import { useEffect, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { naira } from "../../../schema/money";
import { formatDateTime } from "../../../schema/datetime";
import { PAYOUT_BANKS } from "../../../schema/withdrawals";
import * as queryKeys from "../../api/keys";
import { savePayoutAccount, useWithdrawable, useWithdrawal, withdraw } from "../../api/withdrawals";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { StepUpCancelled, useStepUp } from "./step-up";

/**
 * Settings → Cash out (issue 45, docs/decisions/071): the bank account to withdraw to (looked up and name-checked by
 * the server), "available to withdraw" beside the balance with the reasons for the rest, and a withdrawal followed live
 * to "Paid into GTBank ····1234" or "Failed — ₦X is back in your wallet". A lazy chunk of Settings.
 */
export default function WithdrawSection() {
  const queryClient = useQueryClient();
  const available = useWithdrawable();
  const { guard, dialog } = useStepUp();
  const [bank, setBank] = useState<string>(PAYOUT_BANKS[0].code);
  const [accountNumber, setAccountNumber] = useState("");
  const [fullName, setFullName] = useState("");
  const [amount, setAmount] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [withdrawalId, setWithdrawalId] = useState<string | null>(null);
  const current = useWithdrawal(withdrawalId);
  const data = available.data;
  const coolingUntil = data?.cooling_until ?? null;

  // The cooling period ends while the screen is open: read again then, so the withdrawal is offered without a reload.
  useEffect(() => {
    if (!coolingUntil) return;
    const wait = Math.max(0, Date.parse(coolingUntil) - Date.now()) + 500;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.withdrawable }), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [coolingUntil, queryClient]);

  const run = async (action: () => Promise<unknown>) => {
    setFailure(null);
    setBusy(true);
    try {
      await guard(action);
    } catch (err) {
      if (!(err instanceof StepUpCancelled)) setFailure(err instanceof Error ? err.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.withdrawable });
      void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
    }
  };

  const onAddAccount = (e: FormEvent) => {
    e.preventDefault();
    void run(() => savePayoutAccount({ bank_code: bank, account_number: accountNumber.trim(), ...(fullName.trim() ? { full_name: fullName.trim() } : {}) }));
  };

  const onWithdraw = (e: FormEvent) => {
    e.preventDefault();
    const value = Number(amount);
    if (!Number.isFinite(value) || value <= 0) return setFailure("Enter the amount to withdraw in naira.");
    void run(async () => {
      const started = await withdraw(value);
      setWithdrawalId(started.id);
      queryClient.setQueryData(queryKeys.withdrawal(started.id), started);
      setAmount("");
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Cash out</CardTitle>
        <CardDescription>Withdraw money you sent in by bank transfer to a bank account in your own name.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {dialog}
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        {data ? (
          <dl className="grid grid-cols-2 gap-2 text-sm" aria-label="Withdrawable balance">
            <dt>Balance</dt>
            <dd data-testid="cashout-balance">{naira(data.balance)}</dd>
            <dt>Available to withdraw</dt>
            <dd data-testid="cashout-available" className="font-semibold">{naira(data.available)}</dd>
            {data.held > 0 ? (
              <>
                <dt>Held for withdrawals</dt>
                <dd>{naira(data.held)}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
        {data && data.reasons.length > 0 ? (
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            {data.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
        {data && !data.account ? (
          <form onSubmit={onAddAccount} noValidate className="flex flex-col gap-3" aria-busy={busy}>
            <Field label="Bank">
              {(p) => (
                <select {...p} name="bank_code" value={bank} onChange={(e) => setBank(e.target.value)} className="h-10 rounded-md border bg-background px-3 text-sm">
                  {PAYOUT_BANKS.map((b) => (
                    <option key={b.code} value={b.code}>
                      {b.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Account number (10 digits)">
              {(p) => <Input {...p} name="account_number" inputMode="numeric" maxLength={10} value={accountNumber} onChange={(e) => setAccountNumber(e.target.value)} />}
            </Field>
            <Field label="Your full name as your bank has it">
              {(p) => <Input {...p} name="full_name" autoComplete="name" value={fullName} onChange={(e) => setFullName(e.target.value)} />}
            </Field>
            <div>
              <Button type="submit" disabled={busy}>
                {busy ? "Checking..." : "Add bank account"}
              </Button>
            </div>
          </form>
        ) : null}
        {data?.account ? (
          <p className="text-sm" data-testid="cashout-account">
            To {data.account.bank_name} ····{data.account.account_last4} · {data.account.account_name}
          </p>
        ) : null}
        {data?.account && data.cooling_until ? (
          <Alert variant="info">For your safety, withdrawals open at {formatDateTime(data.cooling_until)} (24 hours after a new bank account or a new device).</Alert>
        ) : null}
        {data?.account && !data.cooling_until ? (
          <form onSubmit={onWithdraw} noValidate className="flex flex-col gap-3" aria-busy={busy}>
            <Field label="Amount to withdraw (₦)">
              {(p) => <Input {...p} name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
            </Field>
            <p className="text-sm text-muted-foreground">
              Fee: {naira(data.fee)}. At least {naira(data.minimum)}, at most {naira(data.per_transaction_cap)} at a time.
            </p>
            <div>
              <Button type="submit" disabled={busy}>
                {busy ? "Sending..." : "Withdraw"}
              </Button>
            </div>
          </form>
        ) : null}
        {current.data ? (
          <p role="status" data-testid="cashout-status" className="font-medium">
            {current.data.message}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
