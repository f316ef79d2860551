import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rentalMessages, rentals } from "./tables";
import type { UserRead } from "../accounts";
import { namedRead, rowsOf } from "../kernel";
import { toRentalOrderRows } from "./rental-views";
import { newestOrdersAsJson, toSmsOrderRows, type SmsOrderRow } from "../sms";
import { jsonRow } from "../../db/json-row";

type RentalRow = typeof rentals.$inferSelect;

/** How many rows of each kind the list holds (newest first), as smsOrderRowsQuery and rentalOrderRowsQuery. */
const LIST_LIMIT = 200;

/**
 * The orders table (both screens): SMS orders and rentals in one list, newest first. A read for readAsSignedInUser
 * (middleware/auth.ts with services/sessions.ts), so the session check and the list cost one D1 round trip on a list
 * the screens poll.
 *
 * Issue 30 (decision 057): both kinds come from ONE statement (a UNION ALL of the newest SMS orders and the newest
 * rentals, each row as a JSON object of its table's columns), not one statement each, so the dashboard's orders read
 * is two statements (session + list) instead of three. The rows are exactly the tables' (every column is plain text
 * or integer, so JSON carries them unchanged); the wallet a rental row shows is the session row's, read in the same
 * batch (the same snapshot the join used to read).
 */
export function ordersRead(db: Db, userId: string, now: number, useAgain?: (order: SmsOrderRow) => boolean) {
  const latestCode = sql`(SELECT ${rentalMessages.code} FROM ${rentalMessages}
      WHERE ${rentalMessages.rentalId} = ${rentals.id} AND ${rentalMessages.code} IS NOT NULL
      ORDER BY ${rentalMessages.receivedAt} DESC, ${rentalMessages.id} DESC LIMIT 1)`;
  const newestSms = newestOrdersAsJson(db, userId, LIST_LIMIT);
  const newestRentals = db
    .select({ kind: sql<"sms" | "rental">`'rental'`.as("kind"), row: sql<string>`${jsonRow(rentals)}`.as("row"), code: sql<string | null>`${latestCode}`.as("code") })
    .from(rentals)
    .where(and(eq(rentals.userId, userId), isNotNull(rentals.number)))
    .orderBy(desc(rentals.createdAt))
    .limit(LIST_LIMIT)
    .as("newest_rentals");
  const list = db.select().from(newestSms).unionAll(db.select().from(newestRentals));
  return namedRead({ listed: rowsOf(list) }, ({ listed }, user: { balanceKobo: number }) => {
      const sms: SmsOrderRow[] = [];
      const rented: { rental: RentalRow; code: string | null; balanceKobo: number }[] = [];
      for (const r of listed) {
        if (r.kind === "sms") sms.push(JSON.parse(r.row) as SmsOrderRow);
        else rented.push({ rental: JSON.parse(r.row) as RentalRow, code: r.code, balanceKobo: user.balanceKobo });
      }
      const rows = [...toSmsOrderRows(sms, user.balanceKobo, useAgain), ...toRentalOrderRows(rented, now)];
      rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      return rows;
  }) satisfies UserRead<unknown[]>;
}

