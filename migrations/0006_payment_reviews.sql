CREATE TABLE `payment_review_resolutions` (
	`review_id` text PRIMARY KEY NOT NULL,
	`outcome` text NOT NULL,
	`amount_kobo` integer,
	`operator_id` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`review_id`) REFERENCES `payment_reviews`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `payment_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_id` text NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`expected_currency` text,
	`expected_amount` text,
	`pay_currency` text,
	`actually_paid` text,
	`suggested_kobo` integer,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_reviews_arrival_unique` ON `payment_reviews` (`provider`,`provider_payment_id`,`reason`);--> statement-breakpoint
CREATE INDEX `payment_reviews_status_idx` ON `payment_reviews` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `credited_kobo` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `actually_paid` text;