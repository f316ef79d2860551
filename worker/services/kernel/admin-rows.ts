import { or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AdminRowCustomer } from "../../../schema/admin";
import { isSandboxUser, notSandboxUser } from "./sandbox-accounts";
import { users } from "./tables";

/**
 * What every room's console list shares (issue 42: each room answers the console about its own rows, services/console
 * asks through the rooms' indexes): the filter, whose row it is (the customer's columns of the kernel's users), the
 * customer search, and test activity left out unless asked for (issue 28).
 */
export interface ListFilter {
  status?: string;
  provider?: string;
  service?: string;
  userId?: string;
  /** Whose rows: a customer's name, e-mail or phone (any common form), as the customers' search reads it. */
  customer?: string;
  /** Sandbox accounts' rows too (test keys); off by default. */
  includeTest?: boolean;
  since?: number;
  stuck?: boolean;
  limit?: number;
}

/** A row waiting this long (an order, a rental, a payment still pending) is stuck: the console's attention. */
export const STUCK_MINUTES = 30;
export const PENDING_TOO_LONG_MS = STUCK_MINUTES * 60_000;

/** Test activity is not business: without `includeTest`, sandbox accounts' rows are left out (issue 28). */
export const businessOnly = (includeTest: boolean | undefined, userIdColumn: AnySQLiteColumn): SQL | undefined => (includeTest ? undefined : notSandboxUser(userIdColumn));

/**
 * The significant digits of a Nigerian phone number however it is typed: 0809..., +234809..., 234809..., with spaces
 * or dashes. Null when the text is not a phone number (fewer than 4 digits, or letters).
 */
export function nationalDigits(text: string): string | null {
  const compact = text.replace(/[\s()-]/g, "");
  if (!/^\+?\d{4,15}$/.test(compact)) return null;
  const digits = compact.replace(/^\+/, "");
  if (digits.startsWith("234") && digits.length > 6) return digits.slice(3);
  if (digits.startsWith("0")) return digits.slice(1);
  return digits;
}

/** The stored phone with its punctuation removed (stored as typed at sign-up), for nationalDigits' comparison. */
const phoneDigits = sql`replace(replace(replace(replace(replace(${users.phone}, '+', ''), ' ', ''), '-', ''), '(', ''), ')', '')`;

/**
 * Which customers a search box means: e-mail, name (contains, case-insensitive), phone in any common form, or an exact
 * id. instr, not LIKE: D1 refuses LIKE patterns over 50 bytes (a whole e-mail address is often longer), and a search
 * box's % and _ are meant literally.
 */
export function customerMatch(q: string): SQL | undefined {
  const term = q.trim();
  if (!term) return undefined;
  const lower = term.toLowerCase();
  const national = nationalDigits(term);
  return or(
    sql`${users.id} = ${term}`,
    sql`instr(${users.email}, ${lower}) > 0`,
    sql`instr(lower(${users.username}), ${lower}) > 0`,
    sql`instr(${users.phone}, ${term}) > 0`,
    national ? sql`instr(${phoneDigits}, ${national}) > 0` : undefined,
  );
}

/** The columns a list joins to say whose row it is. */
export const rowCustomerColumns = { id: users.id, name: users.username, email: users.email, phone: users.phone };
export type RowCustomer = { id: string; name: string; email: string; phone: string };
export const rowCustomer = (c: RowCustomer | null): AdminRowCustomer | null => (c ? { ...c, test: isSandboxUser(c.id) } : null);

/** The status filter from the query string: a status the table cannot hold matches no row. */
export function statusFilter<T extends string>(statuses: readonly T[], value: string | undefined, match: (status: T) => SQL): SQL | undefined {
  if (!value) return undefined;
  return (statuses as readonly string[]).includes(value) ? match(value as T) : sql`0`;
}

export function clampLimit(limit: number | undefined): number {
  return Math.max(1, Math.min(200, Math.floor(limit ?? 50)));
}
