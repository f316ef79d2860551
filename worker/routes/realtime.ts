import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const realtimeRoutes = new Hono<AppEnv>();
