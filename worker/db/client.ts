import { drizzle } from "drizzle-orm/d1";
import * as tables from "./tables";

export type Db = ReturnType<typeof getDb>;

export function getDb(d1: D1Database) {
  return drizzle(d1, { schema: tables });
}
