import * as contract from "../contract/resellers";
import { getDb } from "../db/client";
import { requireAuth } from "../middleware/auth";
import { acceptResellerTerms, getMarkups, listSubaccounts, resellerSummary, setMarkups } from "../services/resellers";
import { nowOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/** Settings "Reseller" (become one by accepting the terms), the partner dashboard's reads and its markup form (issue 46). */
export const resellerRoutes: RouteApp = routeApp()
  .openapi(guarded(contract.reseller, requireAuth), async (c) => c.json(await resellerSummary(getDb(c.env.DB), c.var.user.id), 200))
  .openapi(guarded(contract.becomeReseller, requireAuth), async (c) => c.json(await acceptResellerTerms(getDb(c.env.DB), c.var.user.id, nowOf(c)), 200))
  .openapi(guarded(contract.resellerSubaccounts, requireAuth), async (c) => c.json({ data: (await listSubaccounts(getDb(c.env.DB), c.var.user.id, { limit: 100 })).data }, 200))
  .openapi(guarded(contract.resellerMarkups, requireAuth), async (c) => c.json(await getMarkups(getDb(c.env.DB), c.var.user.id), 200))
  .openapi(guarded(contract.setResellerMarkups, requireAuth), async (c) => c.json(await setMarkups(getDb(c.env.DB), c.var.user.id, c.req.valid("json")), 200));
