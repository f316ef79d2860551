import { Copy } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { naira } from "../../../schema/money";
import type { OrderRow } from "../../../schema/sms";
import { copyText } from "../../lib/clipboard";
import { cn } from "../../lib/cn";
import { formatDateTime, formatPhone, shortId } from "../../lib/format";
import { useMediaQuery } from "../../lib/use-media-query";
import { Badge } from "../ui/badge";
import { orderStatusLabel, orderStatusVariant } from "./status-style";

/** Statuses in which a code may still come: only these rows say 'Waiting...' (a cancelled order is not waiting). */
const LIVE_STATUSES = new Set(["waiting", "pending", "active"]);

/** Narrower than this, each order is a card (eight columns cannot fit a phone). */
export const ORDER_CARDS_QUERY = "(max-width: 639px)";

function CopyButton({ value, label, message }: { value: string; label: string; message: string }) {
  return (
    <button
      type="button"
      onClick={() => void copyText(value, message)}
      aria-label={label}
      title={label}
      className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100 cursor-pointer"
    >
      <Copy className="h-3.5 w-3.5" aria-hidden />
    </button>
  );
}

function CodeCell({ order }: { order: OrderRow }) {
  // A row's `sms` is its code or null (services/sms/sms-views.ts toSmsOrderRows, rent/rental-views.ts): never a failure text.
  if (order.sms) {
    return (
      <span className="inline-flex items-center gap-1">
        <span className="font-mono font-semibold">{order.sms}</span>
        <CopyButton value={order.sms} label={`Copy code ${order.sms}`} message="Code copied to clipboard!" />
      </span>
    );
  }
  if (LIVE_STATUSES.has(order.status.toLowerCase())) return <span className="text-slate-600 dark:text-slate-300">Waiting...</span>;
  return <span className="text-slate-600 dark:text-slate-300" aria-label="No code">—</span>;
}

function OrderIdCell({ order }: { order: OrderRow }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span className="font-mono text-xs" title={order.reference_code}>
        {shortId(order.reference_code)}
      </span>
      <CopyButton value={order.reference_code} label={`Copy order ID ${order.reference_code}`} message="Order ID copied to clipboard!" />
    </span>
  );
}

function NumberCell({ order }: { order: OrderRow }) {
  if (!order.purchased_number) return null;
  const shown = formatPhone(order.purchased_number);
  return (
    <span className="inline-flex items-center gap-1">
      <span className="whitespace-nowrap tabular-nums">{shown}</span>
      <CopyButton value={order.purchased_number} label={`Copy number ${shown}`} message="Number copied to clipboard!" />
    </span>
  );
}

/**
 * The service, and for a "try another number" purchase which number of its chain this row was: each number is its own
 * row (and its own charge or refund), so the chain reads top to bottom.
 */
function ServiceCell({ order }: { order: OrderRow }) {
  return (
    <>
      {order.service}
      {order.chain_step ? (
        <span className="ml-1 whitespace-nowrap text-xs text-slate-600 dark:text-slate-400" data-testid="order-chain-step" title="If no code comes, another number is tried">
          (try {order.chain_step})
        </span>
      ) : null}
      {/* Issue 49, the rented number's health: when it last received a message. */}
      {order.kind === "rental" && order.last_message_at !== undefined ? (
        <span className="block whitespace-nowrap text-xs text-slate-600 dark:text-slate-400" data-testid="rental-last-message">
          {order.last_message_at ? `Last SMS ${formatDateTime(order.last_message_at)}` : "No SMS yet"}
        </span>
      ) : null}
    </>
  );
}

const StatusBadge = ({ order }: { order: OrderRow }) => (
  <Badge variant={orderStatusVariant(order.status)} title={order.status}>
    {orderStatusLabel(order.status, order.kind)}
  </Badge>
);

/** Whether the box scrolls sideways (then a hint says so, and the last columns are pinned). */
function useOverflowsX(ref: React.RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== "function") return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    check();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * Where the pinned columns sit from the right edge, from their own measured widths (issue 43: fixed guesses let a wide
 * status or action cover Amount, "₦240.", and Provider, and cut Service to "Ren"): Action at 0, Status after Action,
 * Amount after both.
 */
function usePinnedOffsets(
  amount: React.RefObject<HTMLElement | null>,
  status: React.RefObject<HTMLElement | null>,
  action: React.RefObject<HTMLElement | null>,
): { status: number; amount: number; pinned: number } {
  const [offsets, setOffsets] = useState({ status: 0, amount: 0, pinned: 0 });
  useEffect(() => {
    if (typeof ResizeObserver !== "function") return;
    const measure = () => {
      const width = (el: HTMLElement | null) => el?.getBoundingClientRect().width ?? 0;
      const next = { status: width(action.current), amount: width(action.current) + width(status.current), pinned: width(action.current) + width(status.current) + width(amount.current) };
      setOffsets((old) => (old.status === next.status && old.amount === next.amount && old.pinned === next.pinned ? old : next));
    };
    const observer = new ResizeObserver(measure);
    for (const el of [amount.current, status.current, action.current]) if (el) observer.observe(el);
    measure();
    return () => observer.disconnect();
  }, [amount, status, action]);
  return offsets;
}

/**
 * The spec's columns, on a screen wide enough. Where they do not all fit, the box scrolls sideways and Amount, Status
 * (and Action) stay pinned to its right edge, each at its measured place; where they fit (1280 px), nothing is pinned.
 */
function Table({ orders, action, caption, opened }: { orders: OrderRow[]; action?: (order: OrderRow) => ReactNode; caption?: string; opened?: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const amountHeadRef = useRef<HTMLTableCellElement>(null);
  const statusHead = useRef<HTMLTableCellElement>(null);
  const actionHead = useRef<HTMLTableCellElement>(null);
  const overflows = useOverflowsX(box);
  const offsets = usePinnedOffsets(amountHeadRef, statusHead, actionHead);
  // Tight cells (issue 43): at 1280 px every column, an Action included, fits without sideways scrolling.
  const th = "sticky top-0 z-10 bg-slate-50 px-1.5 py-2 text-left text-xs font-semibold uppercase whitespace-nowrap text-slate-600 dark:bg-slate-800 dark:text-slate-300";
  const td = "px-1.5 py-2 align-middle whitespace-nowrap";
  // Pinned cells: an opaque background so the columns scrolling under them stay hidden; a left shadow marks the edge.
  const pin = (right: number, head = false) =>
    overflows ? { className: cn("sticky bg-white dark:bg-slate-900", head ? "z-20 bg-slate-50 dark:bg-slate-800" : "z-[5]"), style: { right } } : { className: "", style: undefined };
  const edge = overflows ? "shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]" : "";
  const amountHead = pin(offsets.amount, true);
  const statusPin = pin(offsets.status, true);
  const actionPin = pin(0, true);
  return (
    <div className="flex flex-col gap-2">
      {overflows ? (
        <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="orders-scroll-hint">
          Scroll the table sideways to see every column →
        </p>
      ) : null}
      <div
        ref={box}
        // Focusable so keyboard users can scroll it (axe: scrollable-region-focusable).
        tabIndex={0}
        role="region"
        aria-label={caption ?? "Orders"}
        className="relative h-[400px] overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-800"
        // A control reached by Tab scrolls into view beside the pinned columns, never under them.
        style={overflows ? { scrollPaddingRight: offsets.pinned } : undefined}
        data-testid="orders-table"
      >
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
              <th ref={amountHeadRef} scope="col" className={cn(th, "text-right", amountHead.className, edge)} style={amountHead.style}>Amount</th>
              <th ref={statusHead} scope="col" className={cn(th, statusPin.className)} style={statusPin.style}>Status</th>
              {action ? <th ref={actionHead} scope="col" className={cn(th, actionPin.className)} style={actionPin.style}>Action</th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {orders.length === 0 ? (
              <tr>
                {/* Centred in the visible box, not across the wide table (which scrolls sideways on a phone). */}
                <td colSpan={action ? 9 : 8} className="p-0">
                  <div className="absolute inset-x-0 top-24 text-center text-sm text-slate-600 dark:text-slate-300">No results found.</div>
                </td>
              </tr>
            ) : (
              orders.map((order) => {
                const amount = pin(offsets.amount);
                const status = pin(offsets.status);
                const act = pin(0);
                return (
                  <tr
                    key={`${order.kind}:${order.reference_code}`}
                    className={cn("hover:bg-slate-50 dark:hover:bg-slate-800/50", order.reference_code === opened && OPENED)}
                    aria-current={order.reference_code === opened ? "true" : undefined}
                    data-order-id={order.reference_code}
                  >
                    <td className={td}><OrderIdCell order={order} /></td>
                    <td className={td}><NumberCell order={order} /></td>
                    <td className={td}><CodeCell order={order} /></td>
                    <td className={td}>{order.country}</td>
                    <td className={td}><ServiceCell order={order} /></td>
                    <td className={td}>{order.provider}</td>
                    <td className={cn(td, "text-right tabular-nums", amount.className, edge)} style={amount.style} data-testid="order-amount">{naira(order.amount)}</td>
                    <td className={cn(td, status.className)} style={status.style}><StatusBadge order={order} /></td>
                    {action ? <td className={cn(td, act.className)} style={act.style}>{action(order)}</td> : null}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The order a notification opened: shaded (with aria-current) until the customer moves on. */
const OPENED = "bg-blue-50 dark:bg-blue-950/40";

/** A phone: one card per order with every column of the table, labelled. */
function Cards({ orders, action, caption, opened }: { orders: OrderRow[]; action?: (order: OrderRow) => ReactNode; caption?: string; opened?: string | null }) {
  if (orders.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 py-10 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300" data-testid="orders-table">
        No results found.
      </p>
    );
  }
  const term = "text-xs font-medium text-slate-600 dark:text-slate-300";
  return (
    <ul
      aria-label={caption ?? "Orders"}
      // 400 px like the table, scrolling; focusable so keyboard users can scroll it.
      tabIndex={0}
      className="flex max-h-[400px] flex-col gap-3 overflow-y-auto rounded-lg focus-visible:outline-2 focus-visible:outline-blue-600"
      data-testid="orders-table"
    >
      {orders.map((order) => (
        <li
          key={`${order.kind}:${order.reference_code}`}
          data-order-id={order.reference_code}
          aria-current={order.reference_code === opened ? "true" : undefined}
          className={cn("rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800", order.reference_code === opened && OPENED)}
        >
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="font-semibold">
                <ServiceCell order={order} /> · {order.country}
              </p>
              <NumberCell order={order} />
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <span className="font-semibold tabular-nums">{naira(order.amount)}</span>
              <StatusBadge order={order} />
            </div>
          </div>
          <dl className="mt-2 grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1">
            <dt className={term}>Code</dt>
            <dd><CodeCell order={order} /></dd>
            <dt className={term}>Order ID</dt>
            <dd><OrderIdCell order={order} /></dd>
            <dt className={term}>Provider</dt>
            <dd>{order.provider}</dd>
          </dl>
          {action ? <div className="mt-2 flex justify-end">{action(order)}</div> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The spec's orders table (both screens): Order ID, Number, Code, Country, Service, Provider, Amount, Status and an
 * optional Action column, 400 px high and scrolling; copy buttons for the order id (the full id), number and code.
 * On a phone each order is a card with the same fields. Statuses read as words ("Code received"), the badge style
 * follows the raw status as the spec sets it.
 */
export function OrdersTable({
  orders,
  action,
  caption,
  opened,
}: {
  orders: OrderRow[];
  /** When given, an 'Action' column is shown and this renders each row's cell. */
  action?: (order: OrderRow) => ReactNode;
  caption?: string;
  /** The order a link opened (a notification's tap, issue 47): marked and scrolled into view. */
  opened?: string | null;
}) {
  const narrow = useMediaQuery(ORDER_CARDS_QUERY);
  useEffect(() => {
    if (!opened) return;
    document.querySelector(`[data-order-id="${CSS.escape(opened)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [opened, narrow, orders.length]);
  return narrow ? <Cards orders={orders} action={action} caption={caption} opened={opened} /> : <Table orders={orders} action={action} caption={caption} opened={opened} />;
}
