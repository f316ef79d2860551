CREATE TABLE `telegram_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `telegram_actions_chat_idx` ON `telegram_actions` (`chat_id`,`status`);--> statement-breakpoint
CREATE TABLE `telegram_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`chat_id` text NOT NULL,
	`user_id` text,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_deliveries_dedupe_unique` ON `telegram_deliveries` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `telegram_deliveries_chat_due_idx` ON `telegram_deliveries` (`chat_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `telegram_deliveries_due_idx` ON `telegram_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `telegram_link_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `telegram_link_tokens_user_idx` ON `telegram_link_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `telegram_links` (
	`chat_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`password_stamp` text NOT NULL,
	`chat_name` text,
	`linked_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_links_user_unique` ON `telegram_links` (`user_id`);--> statement-breakpoint
CREATE TABLE `telegram_updates` (
	`update_id` integer PRIMARY KEY NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `telegram_updates_received_idx` ON `telegram_updates` (`received_at`);--> statement-breakpoint
CREATE TABLE `sandbox_telegram_messages` (
	`message_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_id` text NOT NULL,
	`from_bot` integer NOT NULL,
	`text` text NOT NULL,
	`parse_mode` text,
	`reply_markup` text,
	`date` integer NOT NULL,
	`edited_at` integer
);
--> statement-breakpoint
CREATE INDEX `sandbox_telegram_messages_chat_idx` ON `sandbox_telegram_messages` (`chat_id`,`message_id`);--> statement-breakpoint
CREATE TABLE `sandbox_telegram_updates` (
	`update_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_id` text NOT NULL,
	`body` text NOT NULL,
	`answered_status` integer,
	`callback_answer` text,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_telegram_webhooks` (
	`bot_id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`secret_token` text,
	`allowed_updates` text,
	`set_at` integer NOT NULL
);
