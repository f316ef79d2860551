CREATE TABLE `sms_chains` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`service_name` text NOT NULL,
	`cap_kobo` integer NOT NULL,
	`routes` text DEFAULT '[]' NOT NULL,
	`max_routes` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`current_order_id` text NOT NULL,
	`end_reason` text,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `chain_id` text;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `chain_step` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `sms_orders_chain_step_unique` ON `sms_orders` (`chain_id`,`chain_step`);