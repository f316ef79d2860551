CREATE TABLE `transfer_deposits` (
	`squad_ref` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payment_id` text,
	`account_number` text,
	`user_id` text,
	`amount_kobo` integer NOT NULL,
	`squad_status` text NOT NULL,
	`state` text NOT NULL,
	`credited_kobo` integer,
	`sender_name` text,
	`detail` text DEFAULT '' NOT NULL,
	`received_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transfer_deposits_state_idx` ON `transfer_deposits` (`state`,`received_at`);--> statement-breakpoint
CREATE INDEX `transfer_deposits_payment_idx` ON `transfer_deposits` (`payment_id`);--> statement-breakpoint
CREATE TABLE `virtual_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`account_number` text NOT NULL,
	`customer_identifier` text NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`bvn_last4` text NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `virtual_accounts_number_unique` ON `virtual_accounts` (`account_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `virtual_accounts_identifier_unique` ON `virtual_accounts` (`customer_identifier`);--> statement-breakpoint
ALTER TABLE `payments` ADD `bank_name` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `account_number` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `account_name` text;