import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import type { ReviewQueueItem as ReviewItem, ReviewResolveBody, ReviewVerification as Verification } from "../../../schema/admin";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange, useReview, useReviews } from "../api";
import { errorText, Loading, Panel } from "../ui";
import { formatDateTime } from "../../../schema/datetime";

/**
 * The Deposits page's review queue (docs/decisions/023, 031): crypto arrivals held for review, card payments pending too
 * long, and card payments Squad confirmed for another amount. An item opens with the provider's record read again; the operator credits or refuses it with a reason, after a
 * confirmation. The server asks the provider again itself and applies a decision once, whatever the console sent.
 */

const REASONS: Record<string, string> = {
  other_currency: "Paid in another coin",
  repeat_payment: "Repeat deposit",
  overpaid: "Paid more than the invoice",
  no_amount: "No amount reported",
  paid_after_settlement: "Paid after settlement",
  card_pending: "Card payment pending too long",
  card_amount_mismatch: "Card charged another amount",
  transfer_amount_mismatch: "Bank transfer of another amount",
  transfer_late: "Bank transfer after the account expired",
  transfer_unverified: "Bank transfer Squad does not confirm",
  transfer_unknown_account: "Bank transfer into an account we do not know",
};
const reasonText = (reason: string) => REASONS[reason] ?? reason;
/** A transfer into an account we do not know has no customer until an operator finds its owner. */
const NO_CUSTOMER = "No customer (account not ours)";
const providerName = (kind: ReviewItem["kind"]) => (kind === "card" || kind === "transfer" ? "Squad" : "NOWPayments");
const dateTime = (iso: string) => formatDateTime(iso);

export function ReviewQueue() {
  const [status, setStatus] = useState<"open" | "resolved">("open");
  const list = useReviews(status);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <Panel
        title="Review queue"
        actions={
          <div role="group" aria-label="Review queue filter" className="flex gap-1">
            {(["open", "resolved"] as const).map((s) => (
              <Button key={s} size="sm" variant={status === s ? "default" : "outline"} aria-pressed={status === s} onClick={() => setStatus(s)}>
                {s === "open" ? "Waiting" : "Resolved"}
              </Button>
            ))}
          </div>
        }
      >
        {!list.data ? (
          <Loading error={list.error} />
        ) : list.data.length === 0 ? (
          <p className="text-sm text-slate-500">{status === "open" ? "Nothing waits for a decision." : "No decisions yet."}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 dark:divide-slate-800" aria-label={status === "open" ? "Deposits waiting for review" : "Resolved reviews"}>
            {list.data.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="review-item">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium">
                    {reasonText(item.reason)} <span className="text-xs font-normal text-slate-500">· {item.kind}</span>
                  </p>
                  <p className="truncate text-slate-600 dark:text-slate-300">{item.user?.email ?? NO_CUSTOMER}</p>
                  <p className="text-xs text-slate-500">
                    {dateTime(item.created_at)} · invoice {item.expected_amount ?? "?"} {item.expected_currency ?? ""}
                    {item.suggested_amount !== null ? ` · worth ${naira(item.suggested_amount)}` : ""}
                    {item.resolution ? ` · ${item.resolution.outcome}${item.resolution.amount !== null ? ` ${naira(item.resolution.amount)}` : ""}` : ""}
                  </p>
                </div>
                <Button size="sm" variant="outline" aria-label={`Review: ${reasonText(item.reason)}, ${item.user?.email ?? NO_CUSTOMER}`} onClick={() => setSelected(item.id)}>
                  Review
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      {/* Keyed by the item: the next item opens fresh, never showing the previous one's result or typed reason. */}
      {selected && <ReviewPanel key={selected} id={selected} onClose={() => setSelected(null)} />}
    </>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col sm:flex-row sm:gap-2">
      <dt className="shrink-0 text-xs text-slate-500 sm:w-40 sm:text-sm">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

function ReviewPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useReview(id);
  const [done, setDone] = useState<string | null>(null);
  // On a phone the panel opens below the list: bring it into view and move focus there, so "Review" visibly does something.
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    anchor.current?.scrollIntoView?.({ block: "start" });
    anchor.current?.focus({ preventScroll: true });
  }, [id]);
  const close = (
    <Button size="sm" variant="ghost" onClick={onClose}>
      Close review
    </Button>
  );
  if (!q.data) {
    return (
      <div ref={anchor} tabIndex={-1} className="scroll-mt-28 outline-none">
        <Panel title="Review" actions={close}>
          <Loading error={q.error} />
        </Panel>
      </div>
    );
  }
  const { review, verification, verifyError } = q.data;
  const provider = providerName(review.kind);
  return (
    <div ref={anchor} tabIndex={-1} className="scroll-mt-28 outline-none">
      <Panel title={`Review: ${reasonText(review.reason)}`} actions={close}>
        <div className="flex flex-col gap-4" data-testid="review-detail">
          <dl className="flex flex-col gap-1">
            <Row label="Customer">
              {review.user ? (
                <a className="text-blue-700 underline dark:text-blue-400" href={`#/admin/customers/${encodeURIComponent(review.user.id)}`}>
                  {review.user.email}
                </a>
              ) : (
                NO_CUSTOMER
              )}
            </Row>
            <Row label="Status">
              <span data-testid="review-status">{review.status}</span>
            </Row>
            <Row label={review.kind === "card" ? "Card payment" : review.kind === "transfer" ? "Transfer payment" : "Invoice"}>
              {review.expected_amount ?? "?"} {review.expected_currency ?? ""} · <code className="text-xs">{review.payment_id}</code>
            </Row>
            {(review.kind === "crypto" || review.kind === "transfer" || review.reason === "card_amount_mismatch") && (
              <Row label="Arrived (recorded)">
                {review.actually_paid ?? "?"} {review.pay_currency ?? ""} · payment <code className="text-xs">{review.provider_payment_id}</code>
              </Row>
            )}
            <Row label="Why it is here">{review.detail}</Row>
            <Row label="Since">{dateTime(review.created_at)}</Row>
          </dl>

          <section aria-labelledby="provider-now" className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h3 id="provider-now" className="text-sm font-semibold">
                What {provider} says now
              </h3>
              <Button size="sm" variant="outline" onClick={() => void q.refetch()} disabled={q.isFetching}>
                {q.isFetching ? "Verifying…" : `Verify again with ${provider}`}
              </Button>
            </div>
            {verifyError && (
              <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                {verifyError}
              </p>
            )}
            {verification && <VerificationView verification={verification} />}
          </section>

          {done && (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              {done}
            </p>
          )}
          {review.resolution ? (
            <p className="text-sm" data-testid="review-resolution">
              {review.resolution.outcome === "credited" ? `Credited ${naira(review.resolution.amount ?? 0)}` : "Refused"} on {dateTime(review.resolution.at)}: “
              {review.resolution.note}”
            </p>
          ) : (
            review.status === "open" && <Decide key={review.id} review={review} verification={verification} onDone={setDone} />
          )}
        </div>
      </Panel>
    </div>
  );
}

function VerificationView({ verification: v }: { verification: Verification }) {
  return (
    <div className="flex flex-col gap-1" data-testid="review-verification">
      <dl className="flex flex-col gap-1">
        <Row label="Status">{v.status}</Row>
        {v.actually_paid !== null && (
          <Row label={v.provider === "squad" ? "Charged" : "Paid"}>
            {v.actually_paid} {v.pay_currency ?? ""}
          </Row>
        )}
        <Row label="Worth">{v.suggested_amount !== null ? naira(v.suggested_amount) : "—"}</Row>
        <Row label="Checked">{dateTime(v.checked_at)}</Row>
      </dl>
      <p className={v.creditable ? "text-sm" : "text-sm text-amber-800 dark:text-amber-300"}>{v.message}</p>
    </div>
  );
}

/** Credit or refuse, with a reason, confirmed in a second step; the button stays disabled while the request runs. */
function Decide({ review, verification, onDone }: { review: ReviewItem; verification: Verification | null; onDone: (message: string) => void }) {
  const creditable = verification === null || verification.creditable;
  const [picked, setAction] = useState<"credit" | "refuse">(creditable ? "credit" : "refuse");
  // A later "verify again" may find nothing to credit: refusing is then the only choice offered.
  const action = creditable ? picked : "refuse";
  const [amount, setAmount] = useState(verification?.suggested_amount != null ? String(verification.suggested_amount) : "");
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const resolve = useAdminChange((body: ReviewResolveBody) => admin.reviews[":id"].resolve.$post({ param: pathParams({ id: review.id }), json: body }).then(json));
  // A card pending too long is credited for exactly its checkout; a card charged another amount takes a typed amount
  // (at most what Squad confirmed), like a crypto arrival.
  const card = review.reason === "card_pending";
  const typed = amount.trim() === "" ? undefined : Number(amount);
  const creditAmount = card ? Number(review.expected_amount) : (typed ?? verification?.suggested_amount ?? null);
  const summary =
    action === "credit"
      ? `Credit ${creditAmount !== null && Number.isFinite(creditAmount) ? naira(creditAmount) : "the amount"} to ${review.user?.email ?? NO_CUSTOMER}?`
      : `Refuse this ${review.kind === "card" ? "card payment" : "arrival"}? Nothing is credited.`;

  const ask = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    if (reason.trim()) setConfirming(true);
  };
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await resolve.mutateAsync({ action, amount: action === "credit" && !card ? typed : undefined, reason: reason.trim() });
      onDone(`${answer.message}${answer.balance !== null ? ` The customer's balance is now ${naira(answer.balance)}.` : ""}`);
    } catch (err) {
      setError(errorText(err));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={ask} className="flex flex-col gap-3" aria-label="Decide this review">
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 text-sm font-semibold">Decision</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="action" value="credit" checked={action === "credit"} disabled={!creditable} onChange={() => { setAction("credit"); setConfirming(false); }} />
          Credit
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="action" value="refuse" checked={action === "refuse"} onChange={() => { setAction("refuse"); setConfirming(false); }} />
          Refuse
        </label>
      </fieldset>
      {action === "credit" &&
        (card ? (
          <p className="text-sm">A card payment is credited for exactly {naira(Number(review.expected_amount))}, and only if Squad confirms the charge.</p>
        ) : (
          <label className="flex flex-col gap-1 text-sm">
            <span>Amount to credit (₦){verification?.max_amount != null ? `, at most ${naira(verification.max_amount)}` : ""}</span>
            <Input
              type="number"
              min="0.01"
              step="0.01"
              inputMode="decimal"
              max={verification?.max_amount ?? undefined}
              value={amount}
              required={verification?.suggested_amount == null}
              onChange={(e) => { setAmount(e.target.value); setConfirming(false); }}
            />
          </label>
        ))}
      <label className="flex flex-col gap-1 text-sm">
        <span>Reason (recorded in the audit log)</span>
        <Input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={2000} placeholder="Why?" />
      </label>
      {confirming ? (
        <div role="group" aria-label="Confirm decision" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950/40">
          <p className="text-sm font-medium">{summary} This cannot be undone.</p>
          <div className="flex flex-wrap gap-2">
            <Button variant={action === "credit" ? "default" : "destructive"} disabled={busy} onClick={() => void confirm()}>
              {busy ? "Working…" : action === "credit" ? "Confirm credit" : "Confirm refusal"}
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button type="submit" variant={action === "credit" ? "default" : "destructive"} disabled={!reason.trim()}>
          {action === "credit" ? "Credit…" : "Refuse…"}
        </Button>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
