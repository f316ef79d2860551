import { Hono } from "hono";
import type { AppEnv } from "../app-env";

export const rentalRoutes = new Hono<AppEnv>();
