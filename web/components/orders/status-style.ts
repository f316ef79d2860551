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
