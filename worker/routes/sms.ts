import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const smsRoutes = new Hono<AppEnv>();
