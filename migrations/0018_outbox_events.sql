CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`message` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`balance_kobo` integer NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_events_dedupe_unique` ON `outbox_events` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `outbox_events_pending_idx` ON `outbox_events` (`delivered_at`,`user_id`,`created_at`);