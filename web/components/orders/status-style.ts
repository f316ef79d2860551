import type { BadgeVariant } from "../ui/badge";

/**
 * The spec's badge rule for an order status, by the status text: success or completed -> default,
 * pending or waiting -> secondary, failed or error -> destructive, anything else -> outline.
 * Checked in that order, so "completed with error" reads as completed.
 */
export function orderStatusVariant(status: string | null | undefined): Extract<BadgeVariant, "default" | "secondary" | "destructive" | "outline"> {
  const s = (status ?? "").toLowerCase();
  if (s.includes("success") || s.includes("completed")) return "default";
  if (s.includes("pending") || s.includes("waiting")) return "secondary";
  if (s.includes("failed") || s.includes("error")) return "destructive";
  return "outline";
}

/**
 * What an order's status means, in words a customer reads (the badge style above still follows the raw status text,
 * as the spec sets it). A refunded outcome says where the money went.
 */
const SMS_LABELS: Record<string, string> = {
  pending: "Getting number",
  waiting: "Waiting for code",
  used: "Code received",
  timeout: "No code · refunded",
  error: "Failed · refunded",
  cancelled: "Cancelled · refunded",
  failed: "Failed · refunded",
};
const RENTAL_LABELS: Record<string, string> = {
  pending: "Starting",
  active: "Active",
  ended: "Ended",
  cancelled: "Cancelled",
  failed: "Failed · refunded",
};

export function orderStatusLabel(status: string | null | undefined, kind: "sms" | "rental"): string {
  const s = (status ?? "").toLowerCase();
  const known = (kind === "rental" ? RENTAL_LABELS : SMS_LABELS)[s];
  if (known) return known;
  return s ? s[0].toUpperCase() + s.slice(1) : "Unknown";
}
