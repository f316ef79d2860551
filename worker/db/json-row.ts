import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A table's row as one JSON object (SQLite's json_object over every column, keyed by its drizzle field name), so rows of
 * several tables can share one UNION ALL statement (the orders list of both products: services/rent/order-list.ts).
 */
export function jsonRow(table: SQLiteTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`);
  return sql`json_object(${sql.join(pairs, sql`, `)})`;
}
