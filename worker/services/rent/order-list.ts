import type { Db } from "../../db/client";
import type { UserRead } from "../accounts";
import { rentalOrderRowsQuery, toRentalOrderRows } from "./rental-views";
import { smsOrderRowsQuery, toSmsOrderRows } from "../sms";

/**
 * The orders table (both screens): SMS orders and rentals in one list, newest first. A read for readAsSignedInUser
 * (middleware/auth.ts with services/sessions.ts), so the session check and both queries cost one D1 round trip on a list the screens poll.
 */
export function ordersRead(db: Db, userId: string) {
  const sms = smsOrderRowsQuery(db, userId);
  const rentals = rentalOrderRowsQuery(db, userId);
  return {
    queries: [sms, rentals],
    shape: (results: unknown[], user: { balanceKobo: number }) => {
      const rows = [
        ...toSmsOrderRows(results[0] as Awaited<typeof sms>, user.balanceKobo),
        ...toRentalOrderRows(results[1] as Awaited<typeof rentals>),
      ];
      rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      return rows;
    },
  } satisfies UserRead<unknown[]>;
}
