import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const healthRoutes = new Hono<AppEnv>().get("/health", (c) =>
  c.json({ status: "ok", providers: c.var.config.providers }),
);
