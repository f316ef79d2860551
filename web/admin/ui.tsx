import { useState, type FormEvent, type ReactNode } from "react";
import type { AdminRowCustomer } from "../../schema/admin";
import { ApiError } from "../api/client";
import { Button, type ButtonVariant } from "../components/ui/button";
import { Input } from "../components/ui/input";

/** A page section: a titled white box, full width on a phone. */
export function Panel({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
      <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>
      <p className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

/**
 * A console table. On a desktop it is a table (scrolling sideways inside its box if it must); on a phone each row
 * stacks into a card of "label: value" lines (admin.css, .admin-table), so balance and status stay in view without
 * sideways scrolling. A column whose heading is empty (an action) shows its cell without a label.
 */
/**
 * `fit`: the table takes the box's width and its cells wrap (long ids and JSON break anywhere) instead of growing to
 * their longest line: the Audit log was 2,321 px wide with After and Why off screen at 1280 px (issue 43).
 */
export function Table({ head, rows, empty = "Nothing here.", label, fit = false }: { head: string[]; rows: ReactNode[][]; empty?: string; label?: string; fit?: boolean }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    // Focusable and named: a desktop table wider than its box scrolls with the keyboard too (axe scrollable-region-focusable).
    <div className="admin-table-box -mx-4 px-4 sm:overflow-x-auto" role="region" aria-label={label ?? head.filter(Boolean).join(", ")} tabIndex={0}>
      <table className={fit ? "admin-table w-full text-left text-sm [overflow-wrap:anywhere]" : "admin-table w-full text-left text-sm sm:min-w-max"} aria-label={label}>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
            {head.map((h, i) => (
              <th key={`${h}-${i}`} className="py-2 pr-4 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={i} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              {cells.map((cell, j) => (
                <td key={j} data-label={head[j] ?? ""} className="py-2 pr-4 align-top">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Whose row it is: the customer's name and e-mail, linked to their page (Deposits, Orders, Rentals). */
export function CustomerCell({ customer }: { customer: AdminRowCustomer | null }) {
  if (!customer) return <span>—</span>;
  return (
    <a href={`#/admin/customers/${encodeURIComponent(customer.id)}`} className="block text-left text-blue-700 underline dark:text-blue-300">
      {customer.name}
      {customer.test && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900 no-underline">test</span>}
      <span className="block break-all text-xs text-slate-600 dark:text-slate-400">{customer.email}</span>
    </a>
  );
}

export function errorText(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : "Something went wrong.";
}

/**
 * An operator action: optional fields of its own plus the reason every change requires. The button stays disabled
 * while the request runs, so one click is one request (the server also applies a repeated credit once).
 */
export function ActionForm({
  label,
  variant = "default",
  children,
  onSubmit,
  testId,
}: {
  label: string;
  variant?: ButtonVariant;
  children?: ReactNode;
  // A form may also say what it did in its own words (e.g. "Posted “title”.").
  // Whatever the change answers (a route's answer), or nothing for a form that only acts.
  onSubmit: (reason: string, form: FormData) => Promise<unknown>;
  testId?: string;
}) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const answer = await onSubmit(reason.trim(), new FormData(e.currentTarget));
      // An answer that says something (e.g. "Waiting for a second operator's approval") is shown as it is.
      const said = typeof answer === "object" && answer !== null && "message" in answer && typeof answer.message === "string" ? answer.message : null;
      setMessage({ ok: true, text: said ?? `${label}: done.` });
      setReason("");
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2" data-testid={testId} aria-label={label}>
      {children}
      <label className="flex flex-col gap-1 text-sm">
        <span>Reason (recorded in the audit log)</span>
        <Input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={2000} placeholder="Why?" />
      </label>
      <Button type="submit" variant={variant} disabled={busy || !reason.trim()}>
        {busy ? "Working…" : label}
      </Button>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-emerald-700 dark:text-emerald-400" : "text-sm text-red-700 dark:text-red-400"}>
          {message.text}
        </p>
      )}
    </form>
  );
}

export function Loading({ error }: { error?: unknown }) {
  return error ? (
    <p role="alert" className="text-sm text-red-700">
      {errorText(error)}
    </p>
  ) : (
    <p className="text-sm text-slate-500">Loading…</p>
  );
}

/** A list's state filter ("all" or one state): the console's lists share it (bank transfers, withdrawals, sub-accounts). */
export function StateFilter<S extends string>({ states, value, onChange }: { states: readonly S[]; value: S | undefined; onChange: (state: S | undefined) => void }) {
  return (
    <label className="text-sm">
      State{" "}
      <select className="rounded border px-2 py-1" value={value ?? ""} onChange={(e) => onChange(states.find((s) => s === e.target.value))}>
        {["", ...states].map((s) => (
          <option key={s} value={s}>
            {s || "all"}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A console list paged like the audit log (`before` = the last row's id seen): the `before` of each page opened after
 * the first, so "Newer" goes back one page without asking the server for a cursor. `reset` when a filter changes.
 */
export function usePages() {
  const [pages, setPages] = useState<string[]>([]);
  return {
    before: pages.at(-1),
    depth: pages.length,
    older: (lastId: string) => setPages((p) => [...p, lastId]),
    newer: () => setPages((p) => p.slice(0, -1)),
    reset: () => setPages([]),
  };
}

/** "Newer / Older" under a paged list: shown once there is more than one page (a full page may have older rows). */
export function Pager({ pages, rows, pageSize }: { pages: ReturnType<typeof usePages>; rows: readonly { id: string }[] | undefined; pageSize: number }) {
  const last = rows?.at(-1);
  const full = last !== undefined && rows!.length === pageSize;
  if (pages.depth === 0 && !full) return null;
  const link = "text-blue-700 underline disabled:text-gray-400 disabled:no-underline";
  return (
    <div className="mt-3 flex gap-3 text-sm">
      <button type="button" className={link} disabled={pages.depth === 0} onClick={pages.newer}>
        Newer
      </button>
      <button type="button" className={link} disabled={!full} onClick={() => last && pages.older(last.id)}>
        Older
      </button>
    </div>
  );
}
