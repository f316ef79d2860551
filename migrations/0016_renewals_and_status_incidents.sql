CREATE TABLE `status_incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`provider` text,
	`started_at` integer NOT NULL,
	`resolved_at` integer,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `status_incidents_started_idx` ON `status_incidents` (`started_at`);--> statement-breakpoint
ALTER TABLE `rentals` ADD `auto_renew_price_kobo` integer;--> statement-breakpoint
ALTER TABLE `rentals` ADD `auto_renew_unit` text;--> statement-breakpoint
ALTER TABLE `rentals` ADD `auto_renew_period` integer;--> statement-breakpoint
ALTER TABLE `rentals` ADD `auto_renew_paused` text;--> statement-breakpoint
ALTER TABLE `rentals` ADD `renewed_expiry` integer;--> statement-breakpoint
ALTER TABLE `rentals` ADD `period_started_at` integer;--> statement-breakpoint
ALTER TABLE `rentals` ADD `reminded_day_at` integer;