import { z } from "zod";

/**
 * The public status page (#/status) and GET /api/status (issue 32): what works, from our own orders. Every figure is
 * shown only from STATUS_MIN_SAMPLE orders, always with its sample size.
 */
export const STATUS_MIN_SAMPLE = 30;

/** One window's outcomes: orders that got a number and ended (code, or no code and refunded). */
export interface StatusWindow {
  /** Orders counted: ended with a code (used) or without one (timeout, upstream error). Cancelled by the customer is left out. */
  orders: number;
  /** Percent of those with a code, one decimal; null below STATUS_MIN_SAMPLE orders. */
  success_rate: number | null;
  /** Median seconds from purchase to the first code; null below STATUS_MIN_SAMPLE orders. */
  median_seconds_to_code: number | null;
}

export interface StatusProvider {
  provider: string;
  name: string;
  /** Up now by the last upstream health check; null when none was recorded yet. */
  up: boolean | null;
  checked_at: string | null;
  last_7_days: StatusWindow;
  last_30_days: StatusWindow;
}

export interface StatusService {
  provider: string;
  country: string;
  service: string;
  last_7_days: StatusWindow;
  last_30_days: StatusWindow;
}

export interface StatusIncident {
  id: number;
  title: string;
  body: string;
  provider: string | null;
  started_at: string;
  resolved_at: string | null;
}

export interface PublicStatus {
  generated_at: string;
  min_sample: number;
  providers: StatusProvider[];
  /** Per country (busiest first), its busiest services over 30 days. */
  top_services: StatusService[];
  /** The refund promise and the last 30 days' figures behind it. */
  refunds: { promise: string; refunded_automatically: number; median_seconds_to_refund: number | null };
  incidents: StatusIncident[];
}

const text = (what: string, max: number) =>
  z.string({ message: `${what} is required.` }).trim().min(1, `${what} is required.`).max(max, `${what} must be at most ${max} characters.`);

/** POST /api/admin/status-incidents: what customers read on the status page; the reason stays in the audit log. */
export const statusIncidentCreateSchema = z.object({
  title: text("A title", 120),
  body: text("A description", 1000),
  provider: z.enum(["Swift", "Dynamic"], { message: "provider must be Swift or Dynamic (or left out for the whole service)." }).nullable().optional(),
  reason: text("A reason", 500),
});
export type StatusIncidentCreate = z.infer<typeof statusIncidentCreateSchema>;
