import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { apiKeys, now } from "../kernel/tables";
import { smsOrders } from "../sms/tables";

/**
 * The developer room's tables: Idempotency-Key records and the SMS-Activate protocol's numeric activation ids.
 * worker/db/tables.ts re-exports every room's tables for drizzle-kit (migrations/) and the tests; inside the
 * services a room reads only its own tables and the kernel's (scripts/domain-rooms.ts).
 */

/**
 * Idempotency-Key records for POST /api/v1/*: the first request with a key inserts its row (the unique primary key
 * decides the race), runs, and stores its answer; a repeat with the same body gets that answer, with another body 422.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    apiKeyId: text("api_key_id").notNull().references(() => apiKeys.id),
    key: text("key").notNull(),
    // SHA-256 of method, path and body: what "the same request" means.
    requestHash: text("request_hash").notNull(),
    // null while the first request is still running
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("idempotency_keys_pk").on(t.apiKeyId, t.key)],
);

/** The SMS-Activate protocol's numeric activation id for an order bought through /stubs/handler_api.php. */
export const apiActivations = sqliteTable(
  "api_activations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull().references(() => smsOrders.id),
  },
  (t) => [uniqueIndex("api_activations_order_unique").on(t.orderId)],
);
