import * as content from "../contract/content";
import { routeApp } from "./route-app";

export const healthRoutes = routeApp().openapi(content.health, (c) =>
  c.json({ status: "ok", providers: c.var.config.providers }),
);
