import { and, desc, eq, isNull } from "drizzle-orm";
import type { StatusIncident, StatusIncidentCreate } from "../../../schema/status";
import type { Db } from "../../db/client";
import { statusIncidents } from "../../db/tables";
import { AppError } from "../../lib/errors";
import { audit } from "./operator-actions";
import { clearStatusCache } from "../sms";

/**
 * Incidents on the public status page (issue 32), posted and resolved by operators from the console; each is written
 * to the audit log with its reason like every console change (decision 013). The page's cache in this isolate is
 * dropped at once; other isolates and the edge show it within STATUS_CACHE_MS.
 */

function view(row: typeof statusIncidents.$inferSelect): StatusIncident {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    provider: row.provider,
    started_at: new Date(row.startedAt).toISOString(),
    resolved_at: row.resolvedAt === null ? null : new Date(row.resolvedAt).toISOString(),
  };
}

export async function listIncidents(db: Db): Promise<StatusIncident[]> {
  return (await db.select().from(statusIncidents).orderBy(desc(statusIncidents.startedAt)).limit(100)).map(view);
}

export async function postIncident(db: Db, d1: D1Database, operator: { email: string }, input: StatusIncidentCreate, now = Date.now()): Promise<StatusIncident> {
  const [row] = await db
    .insert(statusIncidents)
    .values({ title: input.title, body: input.body, provider: input.provider ?? null, startedAt: now, createdBy: operator.email })
    .returning();
  await audit(d1, { actor: operator.email, action: "status.incident.post", detail: { id: row.id, title: row.title, provider: row.provider }, reason: input.reason, subject: `incident:${row.id}` });
  clearStatusCache();
  return view(row);
}

export async function resolveIncident(db: Db, d1: D1Database, operator: { email: string }, id: number, reason: string, now = Date.now()): Promise<StatusIncident> {
  const [row] = await db
    .update(statusIncidents)
    .set({ resolvedAt: now })
    .where(and(eq(statusIncidents.id, id), isNull(statusIncidents.resolvedAt)))
    .returning();
  if (!row) {
    const [exists] = await db.select({ id: statusIncidents.id }).from(statusIncidents).where(eq(statusIncidents.id, id)).limit(1);
    throw exists ? new AppError("INVALID_STATE", "This incident is already resolved.") : new AppError("NOT_FOUND", "Incident not found.");
  }
  await audit(d1, { actor: operator.email, action: "status.incident.resolve", detail: { id }, reason, subject: `incident:${id}` });
  clearStatusCache();
  return view(row);
}
