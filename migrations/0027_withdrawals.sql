CREATE TABLE `payout_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`bank_code` text NOT NULL,
	`account_number` text NOT NULL,
	`account_name` text NOT NULL,
	`verified_name` text NOT NULL,
	`name_source` text NOT NULL,
	`usable_from` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount_kobo` integer NOT NULL,
	`fee_kobo` integer NOT NULL,
	`bank_code` text NOT NULL,
	`account_number` text NOT NULL,
	`account_name` text NOT NULL,
	`reference` text NOT NULL,
	`status` text NOT NULL,
	`squad_status` text,
	`nip_reference` text,
	`detail` text DEFAULT '' NOT NULL,
	`decided_by` text,
	`decision_reason` text,
	`move_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_reference_unique` ON `withdrawals` (`reference`);--> statement-breakpoint
CREATE INDEX `withdrawals_user_idx` ON `withdrawals` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawals_status_idx` ON `withdrawals` (`status`,`updated_at`);