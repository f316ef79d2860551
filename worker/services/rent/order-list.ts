import { and, desc, eq, getTableColumns, isNotNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { rentalMessages, rentals, smsOrders } from "../../db/tables";
import type { UserRead } from "../accounts";
import { toRentalOrderRows } from "./rental-views";
import { toSmsOrderRows, type SmsOrderRow } from "../sms";

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
export function ordersRead(db: Db, userId: string, useAgain?: (order: SmsOrderRow) => boolean) {
  const latestCode = sql`(SELECT ${rentalMessages.code} FROM ${rentalMessages}
      WHERE ${rentalMessages.rentalId} = ${rentals.id} AND ${rentalMessages.code} IS NOT NULL
      ORDER BY ${rentalMessages.receivedAt} DESC, ${rentalMessages.id} DESC LIMIT 1)`;
  // Issue 49, the number's health: when a rented number last received a message.
  const lastMessageAt = sql`(SELECT MAX(${rentalMessages.receivedAt}) FROM ${rentalMessages} WHERE ${rentalMessages.rentalId} = ${rentals.id})`;
  const newestSms = db
    .select({ kind: sql<"sms" | "rental">`'sms'`.as("kind"), row: sql<string>`${jsonRow(smsOrders)}`.as("row"), code: sql<string | null>`NULL`.as("code"), lastAt: sql<number | null>`NULL`.as("last_at") })
    .from(smsOrders)
    .where(and(eq(smsOrders.userId, userId), isNotNull(smsOrders.number)))
    .orderBy(desc(smsOrders.createdAt))
    .limit(LIST_LIMIT)
    .as("newest_sms");
  const newestRentals = db
    .select({ kind: sql<"sms" | "rental">`'rental'`.as("kind"), row: sql<string>`${jsonRow(rentals)}`.as("row"), code: sql<string | null>`${latestCode}`.as("code"), lastAt: sql<number | null>`${lastMessageAt}`.as("last_at") })
    .from(rentals)
    .where(and(eq(rentals.userId, userId), isNotNull(rentals.number)))
    .orderBy(desc(rentals.createdAt))
    .limit(LIST_LIMIT)
    .as("newest_rentals");
  const list = db.select().from(newestSms).unionAll(db.select().from(newestRentals));
  return {
    queries: [list],
    shape: (results: unknown[], user: { balanceKobo: number }) => {
      const listed = results[0] as Awaited<typeof list>;
      const sms: SmsOrderRow[] = [];
      const rented: { rental: RentalRow; code: string | null; lastMessageAt: number | null; balanceKobo: number }[] = [];
      for (const r of listed) {
        if (r.kind === "sms") sms.push(JSON.parse(r.row) as SmsOrderRow);
        else rented.push({ rental: JSON.parse(r.row) as RentalRow, code: r.code, lastMessageAt: r.lastAt, balanceKobo: user.balanceKobo });
      }
      const rows = [...toSmsOrderRows(sms, user.balanceKobo, useAgain), ...toRentalOrderRows(rented)];
      rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      return rows;
    },
  } satisfies UserRead<unknown[]>;
}

/** `json_object('id', "t"."id", ...)` over every column of a table, keyed as drizzle names them ($inferSelect's shape). */
function jsonRow(table: SQLiteTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`);
  return sql`json_object(${sql.join(pairs, sql`, `)})`;
}
