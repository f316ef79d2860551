import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { formatTime } from "../../schema/datetime";
import { naira } from "../../schema/money";
import type { ResellerView } from "../../schema/resellers";
import { ApiError, json, signedIn } from "../api/client";
import * as queryKeys from "../api/keys";
import { resellerMarkupsQueryOptions, resellerQueryOptions, resellerSubaccountsQueryOptions, useBecomeReseller, useSetResellerMarkups } from "../api/resellers";
import { useDocumentTitle } from "../components/layout/logo";

/**
 * The partner dashboard (issue 46, decision 072): become a reseller by accepting the terms, then see the sub-accounts
 * (live wallet) with their balances and statuses. Sub-accounts are opened, funded and bought as through the developer
 * API (docs/developer-api.md "Resellers"); this screen is its own lazy chunk, off the dashboard's budget.
 */
export default function PartnerPage() {
  useDocumentTitle("Partner");
  const reseller = useQuery(resellerQueryOptions());
  if (reseller.isPending) return <p className="p-4 text-slate-600">Loading…</p>;
  if (reseller.isError) return <p className="p-4 text-red-700">Could not load your reseller status. Please try again.</p>;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold tracking-tight">Partner</h1>
      {reseller.data.reseller ? (
        <>
          <Figures marginEarned={reseller.data.margin_earned} spend={reseller.data.subaccount_spend} markup={reseller.data.markup_percent} />
          {reseller.data.wholesale ? <Wholesale wholesale={reseller.data.wholesale} /> : null}
          <MarkupForm />
          <Subaccounts />
          <PartnerKeys />
        </>
      ) : (
        <BecomeReseller revoked={reseller.data.status === "revoked"} />
      )}
    </section>
  );
}

function BecomeReseller({ revoked }: { revoked: boolean }) {
  const become = useBecomeReseller();
  const [accepted, setAccepted] = useState(false);
  if (revoked) return <p className="text-red-700">Your reseller access was revoked. Contact support.</p>;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (accepted) become.mutate();
      }}
    >
      <p>
        Sell numbers to your own customers: give each one a sub-account, a wallet of its own that you fund from yours, and
        buy as it through the API. A sub-account never spends your money.
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />I accept the reseller terms
      </label>
      {become.isError ? <p className="text-red-700">{become.error.message}</p> : null}
      <button type="submit" disabled={!accepted || become.isPending} className="self-start rounded bg-blue-600 px-4 py-2 font-semibold text-white disabled:opacity-50">
        Become a reseller
      </button>
    </form>
  );
}

/** What the reseller earns and its customers spend (live wallet), and its flat markup (the form below, or the API). */
function Figures({ marginEarned, spend, markup }: { marginEarned: number; spend: number; markup: number }) {
  return (
    <dl className="flex flex-wrap gap-2 text-sm">
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Margin earned</dt>
        <dd className="text-lg font-semibold" data-testid="margin-earned">
          {naira(marginEarned)}
        </dd>
      </div>
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Sub-accounts spent</dt>
        <dd className="text-lg font-semibold" data-testid="subaccount-spend">
          {naira(spend)}
        </dd>
      </div>
      <div className="min-w-0 flex-1 rounded border p-2 dark:border-slate-700">
        <dt className="text-slate-600 dark:text-slate-300">Your markup</dt>
        <dd className="text-lg font-semibold" data-testid="markup">
          {markup}%
        </dd>
      </div>
    </dl>
  );
}

type WholesaleView = NonNullable<ResellerView["wholesale"]>;

/** The dashboard's wholesale sentence (decision 074): the tier and what the next one needs, or that the top is reached. */
export function wholesaleNextLine(w: WholesaleView): string {
  return w.next
    ? `${naira(w.next.remaining)} more spend to the next tier (${w.next.name}, ${w.next.percentage}% off).`
    : "You are on the top wholesale tier.";
}

/** The wholesale tier (issue 46): the 30-day spend it is read from (refreshed about hourly), and the next tier's need. */
function Wholesale({ wholesale: w }: { wholesale: WholesaleView }) {
  return (
    <section aria-labelledby="wholesale-tier" className="rounded border p-2 text-sm dark:border-slate-700" data-testid="wholesale">
      <h2 id="wholesale-tier" className="text-lg font-semibold">
        Wholesale tier: {w.tier.name} ({w.tier.percentage}% off)
      </h2>
      <p>
        You and your sub-accounts spent <strong data-testid="wholesale-spend">{naira(w.spend_30d)}</strong> in the last 30 days
        {w.as_of ? ` (as of ${formatTime(w.as_of)})` : ""}.
      </p>
      <p data-testid="wholesale-next">{wholesaleNextLine(w)}</p>
      <p className="text-slate-600 dark:text-slate-300">
        Your price is the better of this and your deposit discount; <a className="text-blue-700 underline dark:text-blue-400" href="#/prices">every tier</a> is on the prices page.
      </p>
    </section>
  );
}

function Subaccounts() {
  const subs = useQuery(resellerSubaccountsQueryOptions());
  return (
    <>
      <p>
        Open and fund sub-accounts with your API key (your partner keys are in{" "}
        <a className="text-blue-700 underline dark:text-blue-400" href="#/developers">Developers</a>): see the API reference (Sub-accounts, Markups) and the
        reseller quick-start.
      </p>
      {subs.isPending ? <p className="text-slate-600">Loading sub-accounts…</p> : null}
      {subs.data && subs.data.length === 0 ? <p data-testid="no-subaccounts">No sub-accounts yet.</p> : null}
      {subs.data && subs.data.length > 0 ? (
        <table className="w-full text-left text-sm" data-testid="subaccounts-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Your id</th>
              <th>Status</th>
              <th className="text-right">Balance</th>
            </tr>
          </thead>
          <tbody>
            {subs.data.map((s) => (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td>{s.external_id}</td>
                <td>{s.status}</td>
                <td className="text-right">{naira(s.balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

/** The keys a reseller's bot uses (live ones spend real money; test ones the sandbox wallet's sub-accounts). */
function PartnerKeys() {
  // Settings → API's own query (the same key, so one cache), written here rather than imported from web/api/developer.ts:
  // importing it split that module into a chunk of its own whose name the entry's preload map then carried (+16 B on
  // the dashboard's path, which is at its budget).
  const keys = useQuery({ queryKey: queryKeys.developerKeys, queryFn: () => signedIn.keys.$get().then(json).then((r) => r.data), staleTime: 0 });
  const live = keys.data?.filter((k) => k.revoked_at === null) ?? [];
  return (
    <section aria-labelledby="partner-keys">
      <h2 id="partner-keys" className="text-lg font-semibold">
        Partner API keys
      </h2>
      {keys.data && live.length === 0 ? <p>No API keys yet: create one in Settings → API.</p> : null}
      {live.length > 0 ? (
        <ul className="text-sm" data-testid="partner-keys">
          {live.map((k) => (
            <li key={k.id}>
              {k.name} · {k.prefix}… · {k.mode} · last used {k.last_used_at ? new Date(k.last_used_at).toLocaleString() : "never"}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

type ServiceRow = { key: number; service: string; percent: string };
/** Errors by input: `percent` (flat), `code.<row>` and `percent.<row>` (a service's), `services` (the list), `form`. */
type FieldErrors = Record<string, string>;

const SERVICE_CODE = /^[A-Za-z0-9_-]{1,32}$/;

/** A percentage typed in the form: a number from 0, two decimals at most (the server checks the ceiling). */
function percentError(text: string): string | null {
  if (text.trim() === "") return "Enter a percentage, 0 or more.";
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) return "A markup is a number, 0 or more.";
  if (Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) return "A markup has at most two decimals.";
  return null;
}

/**
 * The reseller's markups (decision 076): the flat percentage and per-service ones (a service's code, as GET
 * /api/v1/prices names it), saved whole through the session's PUT /api/reseller/markups, the same service, validation
 * and ceiling as PUT /api/v1/markups. Each input carries its own error (aria-describedby, aria-invalid); a saved form
 * says so in a status line.
 */
function MarkupForm() {
  const markups = useQuery(resellerMarkupsQueryOptions());
  if (markups.isPending) return <p className="text-slate-600">Loading your markups…</p>;
  if (markups.isError) return <p className="text-red-700">Could not load your markups. Please try again.</p>;
  // Filled once from the server's values; a save keeps what was typed (it is what was saved) and says so.
  return <MarkupFields saved={markups.data} />;
}

function MarkupFields({ saved }: { saved: { percent: number; services: Record<string, number>; max_percent: number } }) {
  const setMarkups = useSetResellerMarkups();
  const [percent, setPercent] = useState(String(saved.percent));
  const [rows, setRows] = useState<ServiceRow[]>(() => Object.entries(saved.services).map(([service, p], key) => ({ key, service, percent: String(p) })));
  const [nextKey, setNextKey] = useState(rows.length);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState(false);
  const servicesErrorId = useId();
  const max = saved.max_percent;

  const edit = (key: number, change: Partial<ServiceRow>) => {
    setDone(false);
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };

  function validate(): FieldErrors {
    const found: FieldErrors = {};
    const ceiling = (text: string) => (Number(text) > max ? `A markup is at most ${max}%.` : null);
    const flat = percentError(percent) ?? ceiling(percent);
    if (flat) found.percent = flat;
    const seen = new Set<string>();
    for (const r of rows) {
      const code = r.service.trim();
      if (!SERVICE_CODE.test(code)) found[`code.${r.key}`] = "A service code holds letters, digits, _ and - (at most 32).";
      else if (seen.has(code)) found[`code.${r.key}`] = "This service is listed twice.";
      seen.add(code);
      const error = percentError(r.percent) ?? ceiling(r.percent);
      if (error) found[`percent.${r.key}`] = error;
    }
    return found;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const services = Object.fromEntries(rows.map((r) => [r.service.trim(), Number(r.percent)]));
    setMarkups.mutate(
      { percent: Number(percent), services },
      {
        onSuccess: () => setDone(true),
        // The server's one error body names the field (`percent`, `services.<code>`, `services`): shown at that input.
        onError: (err) => setErrors({ [inputOf(err instanceof ApiError && typeof err.body.field === "string" ? err.body.field : "")]: err.message }),
      },
    );
  }

  /** The input a server's `field` names: `services.<code>` is that service's row. */
  const inputOf = (field: string): string => {
    if (field === "percent" || field === "services") return field;
    const row = field.startsWith("services.") ? rows.find((r) => r.service.trim() === field.slice("services.".length)) : undefined;
    return row ? `percent.${row.key}` : "form";
  };
  return (
    <section aria-labelledby="markups-title">
      <h2 id="markups-title" className="text-lg font-semibold">
        Your markups
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        What your sub-accounts pay on top of your price, on numbers, rentals and every further number of a chain. The
        difference is your margin, credited when the order is kept.
      </p>
      <form className="mt-2 flex flex-col gap-3" onSubmit={submit} noValidate>
        <MarkupInput label="Flat markup (%)" hint={`On every service without its own markup; at most ${max}%.`} error={errors.percent} value={percent} onChange={(v) => { setDone(false); setPercent(v); }} />
        <fieldset className="flex flex-col gap-2" aria-describedby={errors.services ? servicesErrorId : undefined}>
          <legend className="text-sm font-medium">Per-service markups</legend>
          {rows.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-300">None: the flat markup applies to every service.</p> : null}
          {rows.map((r, i) => (
            <div key={r.key} className="flex flex-wrap items-end gap-2" data-testid="service-markup">
              <MarkupInput label={`Service code ${i + 1}`} error={errors[`code.${r.key}`]} value={r.service} onChange={(v) => edit(r.key, { service: v })} text />
              <MarkupInput label={`Markup for service ${i + 1} (%)`} error={errors[`percent.${r.key}`]} value={r.percent} onChange={(v) => edit(r.key, { percent: v })} />
              <button type="button" className="h-10 rounded border px-3 text-sm dark:border-slate-700" onClick={() => { setDone(false); setRows((all) => all.filter((x) => x.key !== r.key)); }}>
                Remove service {i + 1}
              </button>
            </div>
          ))}
          {errors.services ? (
            <p id={servicesErrorId} role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
              {errors.services}
            </p>
          ) : null}
          <button
            type="button"
            className="self-start text-sm text-blue-700 underline dark:text-blue-400"
            onClick={() => {
              setDone(false);
              setRows((all) => [...all, { key: nextKey, service: "", percent: "" }]);
              setNextKey((k) => k + 1);
            }}
          >
            Add a service markup
          </button>
        </fieldset>
        {errors.form ? (
          <p role="alert" className="text-sm text-red-700">
            {errors.form}
          </p>
        ) : null}
        <div className="flex items-center gap-3">
          <button type="submit" disabled={setMarkups.isPending} className="rounded bg-blue-600 px-4 py-2 font-semibold text-white disabled:opacity-50">
            Save markups
          </button>
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {done ? "Markups saved." : ""}
          </p>
        </div>
      </form>
    </section>
  );
}

/**
 * One labelled input of the markup form, its hint and error tied to it (aria-describedby, aria-invalid). Written here
 * rather than with components/ui/field and input: those would join this chunk's preload list in the entry, which is
 * on the dashboard's path (its byte budget).
 */
function MarkupInput(p: { label: string; hint?: string; error?: string; value: string; onChange: (value: string) => void; text?: boolean }) {
  const id = useId();
  const describedBy = [p.hint ? `${id}-hint` : null, p.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {p.label}
      </label>
      <input
        id={id}
        inputMode={p.text ? "text" : "decimal"}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        aria-invalid={Boolean(p.error)}
        aria-describedby={describedBy}
        className="h-10 w-40 rounded-lg border border-slate-300 bg-white px-3 text-sm aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
      />
      {p.hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {p.hint}
        </p>
      ) : null}
      {p.error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
          {p.error}
        </p>
      ) : null}
    </div>
  );
}
