import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const walletRoutes = new Hono<AppEnv>();
