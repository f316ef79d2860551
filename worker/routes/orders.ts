import * as sms from "../contract/sms";
import { readAsSignedInUser } from "../middleware/auth";
import { ordersRead } from "../services/rent";
import { useAgainCheck } from "../services/sms";
import { nowOf, smsDepsOf } from "./flow-deps";
import { routeApp, type RouteApp } from "./route-app";

/** The orders table (spec section 7): SMS orders and rentals in one list, newest first. */
export const orderRoutes: RouteApp = routeApp()
  // The session check and both queries are one D1 round trip (readAsSignedInUser).
  .openapi(sms.orders, async (c) => {
    const useAgain = useAgainCheck(smsDepsOf(c));
    return c.json({ data: await readAsSignedInUser(c, (db, userId) => ordersRead(db, userId, nowOf(c), useAgain)) });
  });
