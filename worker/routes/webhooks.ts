import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const webhookRoutes = new Hono<AppEnv>();
