import { useState } from "react";
import { Input } from "../../components/ui/input";
import { formatPhone } from "../../lib/format";
import { naira, useCustomerSearch } from "../api";
import { Loading, Panel, Table } from "../ui";

/** Customers: search by e-mail, username, phone or id. */
export default function CustomersPage() {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const list = useCustomerSearch(q);
  return (
    <>
      <h1 className="text-xl font-semibold">Customers</h1>
      <form
        role="search"
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <Input aria-label="Search customers" placeholder="E-mail, name, phone (0809…, +234…) or id" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="shrink-0 rounded-lg bg-blue-600 px-4 text-sm font-medium text-white">
          Search
        </button>
      </form>
      <Panel title={q ? `Results for “${q}”` : "Newest customers"}>
        {!list.data ? (
          <Loading error={list.error} />
        ) : (
          <Table
            head={["Customer", "Balance", "State"]}
            rows={list.data.map((c) => [
              <a key="c" href={`#/admin/customers/${encodeURIComponent(c.id)}`} className="text-blue-700 underline">
                {c.email}
                <span className="block text-xs text-slate-500 no-underline">
                  {c.username} · {formatPhone(c.phone)}
                </span>
              </a>,
              naira(c.balance),
              [c.blocked ? "blocked" : "active", c.role === "operator" ? "operator" : null, c.twoFactor ? "2FA" : null].filter(Boolean).join(" · "),
            ])}
            empty="No customer matches."
          />
        )}
      </Panel>
    </>
  );
}
