/**
 * The drizzle schema, drizzle-kit's source for migrations/ (drizzle.config.ts): every room's tables, each defined in
 * its room's own tables.ts (decision 041 and 062: a room owns its data). This file only re-exports them, for
 * drizzle-kit, the database client's schema, the operator CLI's statements (db/admin-sql.ts, db/money-rows.ts), the
 * sandbox simulators and the tests. A service never imports it: a room reads its own tables and the kernel's, and
 * asks another room through that room's index (scripts/domain-rooms.ts).
 */
export * from "../services/kernel/tables";
export * from "../services/accounts/tables";
export * from "../services/funding/tables";
export * from "../services/sms/tables";
export * from "../services/rent/tables";
export * from "../services/developer/tables";
export * from "../services/console/tables";
export * from "../services/telegram/tables";
// The sandbox Bot API simulator's chats, messages and webhook (issue 48): sandbox-only, but migrated like the rest.
export * from "../sandbox/telegram-tables";
export * from "../services/notifications/tables";
// The sandbox push service's own state (worker/sandbox/web-push-service.ts): no room's, never read by the product.
export * from "./sandbox-push-tables";
export * from "../services/resellers/tables";
