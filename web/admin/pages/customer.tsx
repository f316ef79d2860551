import type { EndSessionsBody, ReasonBody } from "../../../schema/admin";
import { formatPhone } from "../../lib/format";
import { arrivedText, invoicedText } from "../deposit-amounts";
import { ManualEntryForm } from "./manual-entry";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange, useCustomer, when } from "../api";
import { ActionForm, Loading, Panel, Stat, Table } from "../ui";

/** One customer: profile, tier, ledger, orders, rentals, deposits, sessions; block, credit/debit, verification, 2FA. */
export default function CustomerPage({ id }: { id: string }) {
  const q = useCustomer(id);
  const param = pathParams({ id });
  const customer = admin.customers[":id"];
  const block = useAdminChange((body: ReasonBody) => customer.block.$post({ param, json: body }).then(json));
  const unblock = useAdminChange((body: ReasonBody) => customer.unblock.$post({ param, json: body }).then(json));
  const resend = useAdminChange((body: ReasonBody) => customer["resend-verification"].$post({ param, json: body }).then(json));
  const reset2fa = useAdminChange((body: ReasonBody) => customer["reset-2fa"].$post({ param, json: body }).then(json));
  const endSessions = useAdminChange((body: EndSessionsBody) => customer.sessions.revoke.$post({ param, json: body }).then(json));

  if (!q.data) return <Loading error={q.error} />;
  const { customer: c, tier } = q.data;
  return (
    <>
      <div>
        <h1 className="break-all text-xl font-semibold">{c.email}</h1>
        <p className="text-sm text-slate-500">
          {c.username} · {formatPhone(c.phone)} · joined {when(c.createdAt)} · <code className="text-xs">{c.id}</code>
        </p>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Balance" value={naira(c.balance)} testId="customer-balance" />
        <Stat label="Total deposited" value={naira(c.totalDeposited)} />
        <Stat label="Tier" value={tier ? `${tier.name} (${tier.percentage}%)` : "—"} />
        <Stat label="State" value={<span data-testid="customer-state">{c.blocked ? "Blocked" : "Active"}</span>} />
        <Stat label="E-mail" value={c.emailVerified ? "Verified" : "Not verified"} />
        <Stat label="Two-factor" value={c.twoFactor ? "On" : "Off"} />
        <Stat label="Group e-mails" value={c.emailOptOut ? "Unsubscribed" : "Subscribed"} />
        <Stat label="Role" value={c.role} />
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Manual credit (through the ledger)">
          <ManualEntryForm direction="credit" customer={c} />
        </Panel>
        <Panel title="Manual debit (never below zero)">
          <ManualEntryForm direction="debit" customer={c} />
        </Panel>
        <Panel title={c.blocked ? "Unblock" : "Block"}>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
            {c.blocked
              ? "The customer can sign in again; their balance was kept."
              : "Ends every session and closes their open tabs at once; login then says the account is blocked. The balance stays theirs."}
          </p>
          {c.blocked ? (
            <ActionForm label="Unblock" testId="unblock-form" onSubmit={(reason) => unblock.mutateAsync({ reason })} />
          ) : (
            <ActionForm label="Block" variant="destructive" testId="block-form" onSubmit={(reason) => block.mutateAsync({ reason })} />
          )}
        </Panel>
        <Panel title="Account help">
          <div className="flex flex-col gap-4">
            {!c.emailVerified && <ActionForm label="Resend verification e-mail" variant="outline" onSubmit={(reason) => resend.mutateAsync({ reason })} />}
            {c.twoFactor && <ActionForm label="Reset two-factor" variant="outline" onSubmit={(reason) => reset2fa.mutateAsync({ reason })} />}
            {c.emailVerified && !c.twoFactor && <p className="text-sm text-slate-500">E-mail verified, two-factor off: nothing to do.</p>}
          </div>
        </Panel>
      </div>

      <Panel title="Ledger">
        <Table head={["When", "Kind", "Amount", "Note"]} rows={q.data.ledger.map((l) => [when(l.createdAt), l.kind, naira(l.amount), l.note])} empty="No ledger rows." />
      </Panel>
      <Panel title="Orders">
        <Table head={["When", "Service", "Number", "Code", "Status", "Price"]} rows={q.data.orders.map((o) => [when(o.createdAt), `${o.provider} · ${o.service}`, o.number ? formatPhone(o.number) : "—", o.code ?? "—", o.status, naira(o.price)])} empty="No orders." />
      </Panel>
      <Panel title="Rentals">
        <Table head={["When", "Number", "Period", "Status", "Expires", "Price"]} rows={q.data.rentals.map((r) => [when(r.createdAt), r.number ? formatPhone(r.number) : "—", `${r.period} ${r.unit}`, r.status, when(r.expiresAt), naira(r.price)])} empty="No rentals." />
      </Panel>
      <Panel title="Deposits">
        <Table
          head={["When", "Channel", "Status", "Invoiced", "Arrived", "Credited"]}
          rows={q.data.deposits.map((d) => [when(d.createdAt), d.channel, d.status, invoicedText(d), arrivedText(d), naira(d.credited)])}
          empty="No deposits."
        />
      </Panel>
      <Panel title="Signed-in sessions">
        <Table head={["Since", "Last seen", "Device", "Country"]} rows={q.data.sessions.map((s) => [when(s.createdAt), when(s.lastSeenAt), s.userAgent ?? "—", s.country ?? "—"])} empty="No live session." />
        {/* Issue 33 (ASVS 7.4.5): signs the customer out everywhere, their open tabs too; they can sign in again. */}
        {q.data.sessions.length > 0 && (
          <div className="mt-3">
            <ActionForm label="End all sessions" variant="outline" testId="end-sessions-form" onSubmit={(reason) => endSessions.mutateAsync({ reason })} />
          </div>
        )}
      </Panel>
      <Panel title="Operator changes">
        <Table head={["When", "Who", "What", "Why"]} rows={q.data.audit.map((a) => [when(a.createdAt), a.actor, a.action, a.reason ?? ""])} empty="No operator change yet." />
      </Panel>
    </>
  );
}
