import * as content from "../contract/content";
import { routeApp, type RouteApp } from "./route-app";

export const healthRoutes: RouteApp = routeApp().openapi(content.health, (c) =>
  c.json({ status: "ok", providers: c.var.config.providers }),
);
