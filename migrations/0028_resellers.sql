CREATE TABLE `reseller_service_markups` (
	`reseller_id` text NOT NULL,
	`service` text NOT NULL,
	`markup_basis_points` integer NOT NULL,
	FOREIGN KEY (`reseller_id`) REFERENCES `resellers`(`user_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reseller_service_markups_unique` ON `reseller_service_markups` (`reseller_id`,`service`);--> statement-breakpoint
CREATE TABLE `resellers` (
	`user_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`terms_accepted_at` integer,
	`granted_by` text,
	`revoked_at` integer,
	`markup_basis_points` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `subaccount_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_user_id` text NOT NULL,
	`subaccount_id` text NOT NULL,
	`direction` text NOT NULL,
	`reason` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`status` text NOT NULL,
	`move_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`parent_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`subaccount_id`) REFERENCES `subaccounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subaccount_transfers_parent_key_unique` ON `subaccount_transfers` (`parent_user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `subaccount_transfers_sub_idx` ON `subaccount_transfers` (`subaccount_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `subaccounts` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_user_id` text NOT NULL,
	`external_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`move_id` text,
	`created_at` integer NOT NULL,
	`frozen_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`parent_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subaccounts_parent_external_unique` ON `subaccounts` (`parent_user_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `subaccounts_parent_idx` ON `subaccounts` (`parent_user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `parent_user_id` text;--> statement-breakpoint
CREATE INDEX `users_parent_idx` ON `users` (`parent_user_id`);