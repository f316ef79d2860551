import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const accountRoutes = new Hono<AppEnv>();
