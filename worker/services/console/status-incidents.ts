import { and, desc, eq, exists, isNull, sql } from "drizzle-orm";
import type { StatusIncident, StatusIncidentCreate } from "../../../schema/status";
import type { Db } from "../../db/client";
import { statusIncidents } from "./tables";
import { AppError } from "../../lib/errors";
import { auditInsert } from "../../db/admin-sql";
import { clearStatusCache } from "./public-status";
import { rowsOf, runBatch, statement } from "../kernel";

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

export async function postIncident(db: Db, operator: { email: string }, input: StatusIncidentCreate, now: number): Promise<StatusIncident> {
  // The incident and its audit row in one batch (issue 29): the audit row names the incident it follows (the row just
  // written, read back by its start and author inside the same batch).
  const { posted } = await runBatch(db, {
    posted: rowsOf(
      db
        .insert(statusIncidents)
        .values({ title: input.title, body: input.body, provider: input.provider ?? null, startedAt: now, createdBy: operator.email })
        .returning(),
    ),
    audit: statement(auditInsert(db, { actor: operator.email, action: "status.incident.post", detail: { title: input.title, provider: input.provider ?? null }, reason: input.reason, subject: "incident" }, now)),
  });
  clearStatusCache();
  const [row] = posted;
  return view(row!);
}

export async function resolveIncident(db: Db, operator: { email: string }, id: number, reason: string, now: number): Promise<StatusIncident> {
  const open = and(eq(statusIncidents.id, id), isNull(statusIncidents.resolvedAt));
  const { resolved } = await runBatch(db, {
    resolved: rowsOf(db.update(statusIncidents).set({ resolvedAt: now }).where(open).returning()),
    // Written only by the call that resolved it (the row now carries this instant).
    audit: statement(
      auditInsert(
        db,
        {
          actor: operator.email,
          action: "status.incident.resolve",
          detail: { id },
          reason,
          subject: `incident:${id}`,
          onlyIf: exists(db.select({ one: sql`1` }).from(statusIncidents).where(and(eq(statusIncidents.id, id), eq(statusIncidents.resolvedAt, now)))),
        },
        now,
      ),
    ),
  });
  const [row] = resolved;
  if (!row) {
    const [found] = await db.select({ id: statusIncidents.id }).from(statusIncidents).where(eq(statusIncidents.id, id)).limit(1);
    throw found ? new AppError("INVALID_STATE", "This incident is already resolved.") : new AppError("NOT_FOUND", "Incident not found.");
  }
  clearStatusCache();
  return view(row);
}
