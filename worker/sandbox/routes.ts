import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";

/** Sandbox-only routes (simulated checkout pages, scripted provider events). They do not exist in live mode. */
export const sandboxRoutes = new Hono<AppEnv>();
sandboxRoutes.use("*", async (c, next) => {
  if (c.var.config.providers !== "sandbox") throw new AppError("NOT_FOUND", "Not found.");
  await next();
});
