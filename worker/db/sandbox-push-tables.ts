import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

const now = sql`(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))`;

// The sandbox push service's state (worker/sandbox/web-push-service.ts, issue 47): never read by the product's own code.

/** A browser as the sandbox push service knows it: the keys it would hold, and the key it subscribed with. */
export const sandboxPushDevices = sqliteTable("sandbox_push_devices", {
  id: text("id").primaryKey(),
  // The VAPID public key the subscription was made with (RFC 8292 §3.2): a push signed with another key is refused.
  applicationServerKey: text("application_server_key").notNull(),
  p256dh: text("p256dh").notNull(),
  auth: text("auth").notNull(),
  // The device's ECDH private key (JWK): what a browser keeps to decrypt its pushes.
  privateJwk: text("private_jwk").notNull(),
  label: text("label").notNull(),
  // Set by the sandbox's "expire" action: the endpoint answers 410 Gone from then on (RFC 8030 §7.3).
  expiredAt: integer("expired_at"),
  createdAt: integer("created_at").notNull().default(now),
});

/** Every request the sandbox push service answered: what it refused and why, and what each accepted push showed. */
export const sandboxPushMessages = sqliteTable(
  "sandbox_push_messages",
  {
    id: text("id").primaryKey(),
    deviceId: text("device_id").notNull(),
    status: integer("status").notNull(),
    problem: text("problem"),
    ttl: integer("ttl"),
    urgency: text("urgency"),
    topic: text("topic"),
    // The decrypted notification: what the device would have shown.
    tag: text("tag"),
    title: text("title"),
    body: text("body"),
    url: text("url"),
    kind: text("kind"),
    payload: text("payload"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("sandbox_push_messages_device_idx").on(t.deviceId, t.receivedAt)],
);
