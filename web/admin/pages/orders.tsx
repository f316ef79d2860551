import { useState } from "react";
import type { ReasonBody } from "../../../schema/admin";
import { json, pathParams } from "../../api/client";
import { admin, naira, useAdminChange, useOrders, useRentals, when } from "../api";
import { formatPhone } from "../../lib/format";
import { ActionForm, CustomerCell, Loading, Panel, Table } from "../ui";
import { Filters } from "./filters";

/** Orders and rentals: filters, stuck items, settle one through the sweep's own guarded transitions. */
export default function OrdersPage() {
  const [filter, setFilter] = useState<Record<string, string>>({});
  const orders = useOrders(filter);
  const rentals = useRentals(filter);
  const [selected, setSelected] = useState<{ kind: "orders" | "rentals"; id: string } | null>(null);
  // Issue 46: an order whose code came, refunded (and a reseller's margin on it reversed). Its answer's `message` (the
  // ActionForm shows it) names a developer's ref share the refund could not take back (decision 075).
  const [refunding, setRefunding] = useState<string | null>(null);
  const refundKept = useAdminChange(({ id, reason }: ReasonBody & { id: string }) => admin.orders[":id"].refund.$post({ param: pathParams({ id }), json: { reason } }).then(json));
  const refundButton = (o: { id: string; status: string; refundedAfterCodeAt: number | null }) =>
    o.status === "used" && o.refundedAfterCodeAt === null ? (
      <button key="r" type="button" className="text-blue-700 underline" onClick={() => setRefunding(o.id)}>
        Refund
      </button>
    ) : o.refundedAfterCodeAt !== null ? (
      "refunded"
    ) : null;
  const settle = useAdminChange(({ kind, id, reason }: ReasonBody & { kind: "orders" | "rentals"; id: string }) =>
    admin[kind][":id"].settle.$post({ param: pathParams({ id }), json: { reason } }).then(json),
  );
  const settleButton = (kind: "orders" | "rentals", id: string, status: string) =>
    ["pending", "waiting", "active"].includes(status) ? (
      <button key="s" type="button" className="text-blue-700 underline" onClick={() => setSelected({ kind, id })}>
        Settle
      </button>
    ) : null;
  return (
    <>
      <h1 className="text-xl font-semibold">Orders and rentals</h1>
      <Filters
        fields={[
          { name: "status", label: "Status", options: ["", "pending", "waiting", "used", "timeout", "error", "cancelled", "failed", "active", "ended"] },
          { name: "provider", label: "Provider" },
          { name: "service", label: "Service" },
          { name: "customer", label: "Customer (name, e-mail or phone)" },
          { name: "stuck", label: "Stuck only", options: ["", "1"] },
        ]}
        values={filter}
        onChange={setFilter}
      />
      {selected && (
        <Panel title={`Settle ${selected.id}`}>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
            Releases the number upstream and refunds the customer, unless a code arrived meanwhile: then the code is kept and shown.
          </p>
          <ActionForm label="Settle now" onSubmit={(reason) => settle.mutateAsync({ ...selected, reason })} />
        </Panel>
      )}
      {refunding && (
        <Panel title={`Refund ${refunding}`}>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
            Its code came, so its price was kept. Refunding gives the price back to the wallet that paid and takes back a reseller's margin on it, and a developer's ref share while the developer's wallet still holds it: the result below says when a share could not be taken back.
          </p>
          <ActionForm label="Refund now" onSubmit={(reason) => refundKept.mutateAsync({ id: refunding, reason })} />
        </Panel>
      )}
      <Panel title="SMS orders">
        {!orders.data ? (
          <Loading error={orders.error} />
        ) : (
          <Table
            label="SMS orders"
            head={["When", "Customer", "Service", "Upstream", "Number", "Code", "Status", "Price", ""]}
            rows={orders.data.map((o) => [
              when(o.createdAt),
              <CustomerCell key="c" customer={o.customer} />,
              `${o.provider} · ${o.service} · ${o.country}`,
              servedBy(o),
              o.number ? formatPhone(o.number) : "—",
              o.code ?? "—",
              o.status,
              naira(o.price),
              settleButton("orders", o.id, o.status) ?? refundButton(o),
            ])}
          />
        )}
      </Panel>
      <Panel title="Rentals">
        {!rentals.data ? (
          <Loading error={rentals.error} />
        ) : (
          <Table
            label="Rentals"
            head={["When", "Customer", "Upstream", "Number", "Period", "Status", "Expires", "Price", ""]}
            rows={rentals.data.map((r) => [
              when(r.createdAt),
              <CustomerCell key="c" customer={r.customer} />,
              servedBy(r),
              r.number ? formatPhone(r.number) : "—",
              `${r.period} ${r.unit}`,
              r.status,
              when(r.expiresAt),
              naira(r.price),
              settleButton("rentals", r.id, r.status),
            ])}
          />
        )}
      </Panel>
    </>
  );
}

/** Which upstream account served a row (issue 32: a HeroSMS order told apart from a DaisySMS one); accounts from 1. */
function servedBy(row: { upstream: string | null; upstreamAccount: number }): string {
  return row.upstream ? `${row.upstream} · account ${row.upstreamAccount + 1}` : "—";
}
