import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Input, inputClasses } from "../../components/ui/input";
import type { ManualEntryBody } from "../../../schema/admin";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange } from "../api";
import { errorText } from "../ui";

/** What the customer's history shows for a manual entry (worker/db/admin-sql.ts supportNote): never the reason. */
export function customerSees(direction: "credit" | "debit", message: string): string {
  const label = direction === "credit" ? "Adjustment by support (deposit)" : "Adjustment by support (debit)";
  const line = message.replace(/\s+/g, " ").trim();
  return line ? `${label}: ${line}` : label;
}

/**
 * A manual credit or debit, asked twice like the review queue: the form says what will happen ("Credit ₦2,500.00 to
 * ada@example.com? Balance after: ₦2,600.00") and sends only on "Confirm". The reason is internal (audit log); the
 * optional message is what the customer reads after "Adjustment by support". After success the form clears and a new
 * request id is drawn, so a double click is one entry and the next entry is a new one.
 */
export function ManualEntryForm({ direction, customer }: { direction: "credit" | "debit"; customer: { id: string; email: string; balance: number } }) {
  const change = useAdminChange((body: ManualEntryBody) =>
    admin.customers[":id"][direction].$post({ param: pathParams({ id: customer.id }), json: body }).then(json),
  );
  const requestId = useRef(crypto.randomUUID());
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const ids = useId();
  const verb = direction === "credit" ? "Credit" : "Debit";
  const value = Number(amount);
  const valid = amount.trim() !== "" && Number.isFinite(value) && value > 0 && reason.trim() !== "";
  const after = customer.balance + (direction === "credit" ? value : -value);

  const ask = (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    if (valid) setConfirming(true);
  };
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setConfirming(false);
  };
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await change.mutateAsync({ amount: value, reason: reason.trim(), customerMessage: message.trim() || undefined, requestId: requestId.current });
      requestId.current = crypto.randomUUID();
      setAmount("");
      setReason("");
      setMessage("");
      // Above the approval threshold (decision 035) nothing moved yet: the server's message says it waits for a second operator.
      setResult({
        ok: true,
        text: answer.approval ? answer.message : `${direction === "credit" ? "Credited" : "Debited"} ${naira(value)}. Balance now ${naira(answer.balance)}.`,
      });
    } catch (err) {
      setResult({ ok: false, text: errorText(err) });
    } finally {
      setConfirming(false);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={ask} className="flex flex-col gap-2" aria-label={`Manual ${direction}`} data-testid={`${direction}-form`}>
      <label className="flex flex-col gap-1 text-sm">
        <span>Amount (₦)</span>
        <Input name="amount" type="number" min="0.01" step="0.01" inputMode="decimal" required value={amount} onChange={edit(setAmount)} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Reason (internal: audit log only, never shown to the customer)</span>
        <textarea name="reason" className={`${inputClasses} h-auto min-h-16 py-2`} required maxLength={2000} value={reason} onChange={edit(setReason)} placeholder="Why?" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Message to the customer (optional)</span>
        <Input name="customerMessage" maxLength={200} value={message} onChange={edit(setMessage)} aria-describedby={`${ids}-sees`} />
      </label>
      <p id={`${ids}-sees`} className="text-xs text-slate-600 dark:text-slate-400">
        Their history will say: “{customerSees(direction, message)}”
      </p>
      {confirming ? (
        <div role="group" aria-label={`Confirm ${direction}`} className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950/40">
          <p className="text-sm font-medium">
            {verb} {naira(value)} {direction === "credit" ? "to" : "from"} {customer.email}? Balance after: {naira(after)}.
            {direction === "debit" && after < 0 ? " The server will refuse it: a wallet never goes below zero." : ""}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant={direction === "credit" ? "default" : "destructive"} disabled={busy} onClick={() => void confirm()}>
              {busy ? "Working…" : `Confirm ${direction}`}
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button type="submit" variant={direction === "credit" ? "default" : "outline"} disabled={!valid}>
          {verb}…
        </Button>
      )}
      {result && (
        <p role={result.ok ? "status" : "alert"} className={result.ok ? "text-sm text-emerald-700 dark:text-emerald-400" : "text-sm text-red-700 dark:text-red-400"}>
          {result.text}
        </p>
      )}
    </form>
  );
}
