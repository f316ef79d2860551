import type { AdminAuditRow } from "../../schema/admin";
import { naira, when } from "./api";

/**
 * The audit log's before/after in words (issue 28): dates as dates (never epoch numbers), kobo as naira, objects as
 * "name: value" lines rather than JSON. Pure, tested in readable.test.ts.
 */

/** Epoch milliseconds between 2001 and 2286: a number that size in an audit value is an instant. */
const isInstant = (v: number) => Number.isInteger(v) && v >= 1e12 && v < 1e13;

function label(key: string): string {
  return key.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A JSON object's fields by name (none for anything else): how the console reads an audit row's free-form detail. */
export function fieldsOf(value: unknown): Map<string, unknown> {
  return new Map(typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value) : []);
}

export function readable(value: unknown, key = ""): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "number") {
    if (/kobo$/i.test(key)) return naira(value / 100);
    if (isInstant(value) || /(^at$|At$)/.test(key)) return when(value);
    return value.toLocaleString("en-NG", { maximumFractionDigits: 6 });
  }
  if (typeof value === "string") {
    // Values read back as text (CAST(... AS TEXT)): an instant stays an instant.
    if (/^\d{13}$/.test(value)) return when(Number(value));
    return value;
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.map((v, i) => `${i + 1}. ${readable(v)}`).join("\n");
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "(none)";
    return entries.map(([k, v]) => `${label(k)}: ${typeof v === "object" && v !== null ? `{ ${readable(v).replace(/\n/g, "; ")} }` : readable(v, k)}`).join(", ");
  }
  return String(value);
}

/** An audit row's before and after, worded for its action. */
export function readableChange(row: Pick<AdminAuditRow, "action" | "detail" | "previous">): { before: string; after: string } {
  const detail = fieldsOf(row.detail);
  const previous = row.previous;
  switch (row.action) {
    case "setting.set":
      return { before: readable(previous), after: readable(detail.get("value")) };
    case "ledger.credit":
    case "ledger.debit": {
      const amountKobo = detail.get("amountKobo");
      const customerMessage = detail.get("customerMessage");
      const amount = typeof amountKobo === "number" ? naira(Math.abs(amountKobo) / 100) : "?";
      const message = typeof customerMessage === "string" ? ` (customer told: “${customerMessage}”)` : "";
      return {
        before: previous === null || previous === undefined ? "—" : `Balance ${naira(Number(previous) / 100)}`,
        after: `${row.action === "ledger.credit" ? "Credited" : "Debited"} ${amount}${message}`,
      };
    }
    case "user.block":
    case "user.unblock":
      return { before: previous ? `Blocked since ${readable(previous)}` : "Not blocked", after: row.action === "user.block" ? "Blocked" : "Unblocked" };
    case "user.reset_2fa":
      return { before: previous ? `Two-factor on since ${readable(previous)}` : "Two-factor off", after: "Two-factor off" };
    default:
      return { before: readable(previous), after: readable(row.detail) };
  }
}
