import { getTableColumns, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * One row of `table` as the selection of an INSERT ... SELECT, so the row can be written under a condition in the
 * same batch as the writes that depend on it (`db.insert(t).select(db.select(rowAsSelect(t, row)).from(x).where(guard))`):
 * SQLite has no conditional INSERT ... VALUES. Every column in table order (drizzle's INSERT ... SELECT wants them all),
 * each value encoded by its column as a plain insert would; a column the row leaves out takes its default, as a plain
 * insert would (its SQL default, its literal default, or NULL).
 */
export function rowAsSelect<T extends SQLiteTable>(table: T, row: T["$inferInsert"]): Record<keyof T["$inferInsert"] & string, SQL.Aliased> {
  const values = row as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([field, column]) => {
      const value = values[field] === undefined ? column.default : values[field];
      const encoded = value === undefined || value === null ? sql`NULL` : value instanceof SQL ? sql`(${value})` : sql`${sql.param(value, column)}`;
      return [field, encoded.as(column.name)];
    }),
  ) as Record<keyof T["$inferInsert"] & string, SQL.Aliased>;
}
