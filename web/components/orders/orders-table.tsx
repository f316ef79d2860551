import { Copy } from "lucide-react";
import type { ReactNode } from "react";
import { formatNaira } from "../../../schema/money";
import type { Order } from "../../api/orders";
import { Badge } from "../ui/badge";
import { copyText } from "../../lib/clipboard";
import { orderStatusVariant } from "./status-style";

/** Statuses in which a code may still come: only these rows say 'Waiting...' (a cancelled order is not waiting). */
const LIVE_STATUSES = new Set(["waiting", "pending", "active"]);
/** The failure texts the server stores in `sms` instead of a code. */
const FAILURE_TEXTS = new Set(["SMS polling timed out, code not sent.", "Error polling SMS"]);

function CopyButton({ value, label, message }: { value: string; label: string; message: string }) {
  return (
    <button
      type="button"
      onClick={() => void copyText(value, message)}
      aria-label={label}
      title={label}
      className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100 cursor-pointer"
    >
      <Copy className="h-3.5 w-3.5" aria-hidden />
    </button>
  );
}

function CodeCell({ order }: { order: Order }) {
  if (order.sms && !FAILURE_TEXTS.has(order.sms)) {
    return (
      <span className="inline-flex items-center gap-1">
        <span className="font-mono font-semibold">{order.sms}</span>
        <CopyButton value={order.sms} label={`Copy code ${order.sms}`} message="Code copied to clipboard!" />
      </span>
    );
  }
  if (LIVE_STATUSES.has(order.status.toLowerCase())) return <span className="text-slate-500 dark:text-slate-400">Waiting...</span>;
  return <span className="text-slate-400 dark:text-slate-500">—</span>;
}

/**
 * The spec's orders table (both screens): 400 px high and scrolling, copy buttons for the order id, number and code,
 * and an optional Action column (the Rent Number screen opens a rental's inbox from it).
 */
export function OrdersTable({
  orders,
  action,
  caption,
}: {
  orders: Order[];
  /** When given, an 'Action' column is shown and this renders each row's cell. */
  action?: (order: Order) => ReactNode;
  caption?: string;
}) {
  const th = "sticky top-0 z-10 bg-slate-50 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300";
  const td = "px-3 py-2 align-middle whitespace-nowrap";
  return (
    <div className="relative h-[400px] overflow-auto rounded-lg border border-slate-200 dark:border-slate-800" data-testid="orders-table">
      <table className="w-full border-collapse text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col" className={th}>Order ID</th>
            <th scope="col" className={th}>Number</th>
            <th scope="col" className={th}>Code</th>
            <th scope="col" className={th}>Country</th>
            <th scope="col" className={th}>Service</th>
            <th scope="col" className={th}>Provider</th>
            <th scope="col" className={th}>Amount (₦)</th>
            <th scope="col" className={th}>Status</th>
            {action ? <th scope="col" className={th}>Action</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {orders.length === 0 ? (
            <tr>
              {/* Centred in the visible box, not across the wide table (which scrolls sideways on a phone). */}
              <td colSpan={action ? 9 : 8} className="p-0">
                <div className="absolute inset-x-0 top-24 text-center text-sm text-slate-500 dark:text-slate-400">No results found.</div>
              </td>
            </tr>
          ) : (
            orders.map((order) => (
              <tr key={`${order.kind}:${order.reference_code}`} className="hover:bg-slate-50 dark:hover:bg-slate-800/50" data-order-id={order.reference_code}>
                <td className={td}>
                  <span className="inline-flex items-center gap-1">
                    <span className="max-w-[6rem] truncate font-mono text-xs" title={order.reference_code}>
                      {order.reference_code}
                    </span>
                    <CopyButton value={order.reference_code} label="Copy order ID" message="Order ID copied to clipboard!" />
                  </span>
                </td>
                <td className={td}>
                  {order.purchased_number ? (
                    <span className="inline-flex items-center gap-1">
                      <span className="font-mono">{order.purchased_number}</span>
                      <CopyButton value={order.purchased_number} label={`Copy number ${order.purchased_number}`} message="Number copied to clipboard!" />
                    </span>
                  ) : null}
                </td>
                <td className={td}>
                  <CodeCell order={order} />
                </td>
                <td className={td}>{order.country}</td>
                <td className={td}>{order.service}</td>
                <td className={td}>{order.provider}</td>
                <td className={`${td} tabular-nums`}>₦{formatNaira(order.amount)}</td>
                <td className={td}>
                  <Badge variant={orderStatusVariant(order.status)}>{order.status}</Badge>
                </td>
                {action ? <td className={td}>{action(order)}</td> : null}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
