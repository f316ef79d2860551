import { formatDateTime } from "../../schema/datetime";
import { exportWindow } from "../../schema/exports";
import type { OrderRow } from "../../schema/sms";
import type { Transaction } from "../../schema/wallet";
import * as rent from "../contract/rentals";
import { nairaCell, toCsv } from "../lib/csv";
import { readAsSignedInUser } from "../middleware/auth";
import { ordersRead } from "../services/rent";
import { transactionsRead } from "../services/funding";
import { subaccountsMovedBetween } from "../services/resellers";
import { getDb, type Db } from "../db/client";
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

/**
 * The rows of each sub-account whose wallet moved in the range (decision 072: `subaccountsMovedBetween`, never one read
 * per sub-account of thousands), read as the history screens read a wallet, kept when `keep` says so, each naming its
 * sub-account. One batch per sub-account that moved.
 */
async function subaccountRows<R>(
  db: Db,
  moved: { id: string; balanceKobo: number }[],
  read: (id: string) => { queries: Parameters<Db["batch"]>[0]; shape(results: readonly unknown[], wallet: { id: string; balanceKobo: number }): unknown },
  keep: (row: R) => boolean,
): Promise<(R & { subaccountId: string | null })[]> {
  const out: (R & { subaccountId: string | null })[] = [];
  for (const sub of moved) {
    const plan = read(sub.id);
    const listed = (plan.shape(await db.batch(plan.queries), { id: sub.id, balanceKobo: sub.balanceKobo }) as R[]).filter(keep);
    out.push(...listed.map((row) => ({ ...row, subaccountId: sub.id })));
  }
  return out;
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
    let userId = "";
    const own = ((await readAsSignedInUser(c, (db, id) => ((userId = id), transactionsRead(db, id)))) as Transaction[]).filter((t) => inWindow(t.created_at, w));
    // Issue 46: a reseller's export also lists its sub-accounts' ledger rows, each naming its sub-account (its own:
    // empty), so a transfer shows both its sides and the Amount column adds up to the money of reseller and sub-accounts.
    const db = getDb(c.env.DB);
    const subs = await subaccountsMovedBetween(db, userId, w.start, w.end);
    const rows = [...own.map((t) => ({ ...t, subaccountId: null as string | null })), ...(await subaccountRows<Transaction>(db, subs.moved, (id) => transactionsRead(db, id), (t) => inWindow(t.created_at, w)))];
    rows.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    const header = ["Date (WAT)", "Reference", "Description", "Amount (NGN)", "Status", "Not moved (NGN)"];
    const csv = toCsv(
      subs.any ? [...header, "subaccount_id"] : header,
      rows.map((t) => {
        const moved = movedKobo(t);
        const cells = [when(t.created_at), t.id, t.note, nairaCell(moved / 100), t.status, t.direction === "none" ? nairaCell(t.amount) : null];
        return subs.any ? [...cells, t.subaccountId] : cells;
      }),
    );
    return csvResponse(csv, `transactions-${range.from}-to-${range.to}.csv`);
  })

  .openapi(rent.exportOrders, async (c) => {
    const range = c.req.valid("query");
    const w = exportWindow(range);
    const now = nowOf(c);
    let userId = "";
    const own = ((await readAsSignedInUser(c, (db, id) => ((userId = id), ordersRead(db, id, now)))) as OrderRow[]).filter((o) => inWindow(o.created_at, w));
    // Issue 46: a reseller's export also lists its sub-accounts' orders, each naming its sub-account (its own: empty).
    const db = getDb(c.env.DB);
    const subs = await subaccountsMovedBetween(db, userId, w.start, w.end);
    const rows = [...own.map((o) => ({ ...o, subaccountId: null as string | null })), ...(await subaccountRows<OrderRow>(db, subs.moved, (id) => ordersRead(db, id, now), (o) => inWindow(o.created_at, w)))];
    rows.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    const header = ["Date (WAT)", "Reference", "Kind", "Service", "Country", "Provider", "Number", "Code", "Amount (NGN)", "Status"];
    const csv = toCsv(
      subs.any ? [...header, "subaccount_id"] : header,
      rows.map((o) => {
        const cells = [when(o.created_at), o.reference_code, o.kind === "sms" ? "Receive SMS" : "Rental", o.service, o.country, o.provider, o.purchased_number, o.sms, nairaCell(o.amount), o.status];
        return subs.any ? [...cells, o.subaccountId] : cells;
      }),
    );
    return csvResponse(csv, `orders-${range.from}-to-${range.to}.csv`);
  });
