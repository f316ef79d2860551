import { formatDateTime } from "../../schema/datetime";
import { exportWindow } from "../../schema/exports";
import type { OrderRow } from "../../schema/sms";
import type { Transaction } from "../../schema/wallet";
import * as rent from "../contract/rentals";
import { nairaCell, toCsv } from "../lib/csv";
import { readAsSignedInUser } from "../middleware/auth";
import { ordersRead } from "../services/rent";
import { transactionsRead } from "../services/funding";
import { routeApp, type RouteApp } from "./route-app";
import { nowOf } from "./flow-deps";

const when = (iso: string) => formatDateTime(iso, { year: "always" });

const inWindow = (iso: string, w: { start: number; end: number }) => {
  const t = Date.parse(iso);
  return t >= w.start && t < w.end;
};

function csvResponse(body: string, name: string): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}

/** A transaction's movement, signed: money in +, out -, nothing moved (pending, failed) 0. */
const movedKobo = (t: Transaction) => (t.direction === "in" ? 1 : t.direction === "out" ? -1 : 0) * Math.round(t.amount * 100);

/**
 * CSV export of what the history screens show (the same reads as GET /api/get-transaction and GET /api/orders, so the
 * same rows and the same statuses), for a date range. Naira with two decimals; times in the app's one clock and format
 * (schema/datetime.ts: Lagos, with the year). Issue 43: a transaction's amount carries its sign and a row that moved
 * nothing says 0.00 (what it asked for in its own column), so the Amount column adds up to the balance's change.
 */
export const exportRoutes: RouteApp = routeApp()
  .openapi(rent.exportTransactions, async (c) => {
    const range = c.req.valid("query");
    const w = exportWindow(range);
    const rows = ((await readAsSignedInUser(c, transactionsRead)) as Transaction[]).filter((t) => inWindow(t.created_at, w));
    const csv = toCsv(
      ["Date (WAT)", "Reference", "Description", "Amount (NGN)", "Status", "Not moved (NGN)"],
      rows.map((t) => {
        const moved = movedKobo(t);
        return [when(t.created_at), t.id, t.note, nairaCell(moved / 100), t.status, t.direction === "none" ? nairaCell(t.amount) : null];
      }),
    );
    return csvResponse(csv, `transactions-${range.from}-to-${range.to}.csv`);
  })

  .openapi(rent.exportOrders, async (c) => {
    const range = c.req.valid("query");
    const w = exportWindow(range);
    const rows = ((await readAsSignedInUser(c, (db, userId) => ordersRead(db, userId, nowOf(c)))) as OrderRow[]).filter((o) => inWindow(o.created_at, w));
    const csv = toCsv(
      ["Date (WAT)", "Reference", "Kind", "Service", "Country", "Provider", "Number", "Code", "Amount (NGN)", "Status"],
      rows.map((o) => [when(o.created_at), o.reference_code, o.kind === "sms" ? "Receive SMS" : "Rental", o.service, o.country, o.provider, o.purchased_number, o.sms, nairaCell(o.amount), o.status]),
    );
    return csvResponse(csv, `orders-${range.from}-to-${range.to}.csv`);
  });
