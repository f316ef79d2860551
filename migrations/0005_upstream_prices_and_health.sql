CREATE TABLE `upstream_health` (
	`provider` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`balance` real,
	`currency` text,
	`balance_usd` real,
	`floor_usd` real NOT NULL,
	`detail` text,
	`checked_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `upstream_prices` (
	`provider` text NOT NULL,
	`country_id` text NOT NULL,
	`service_id` text NOT NULL,
	`cost_usd` real NOT NULL,
	`updated_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`provider`, `country_id`, `service_id`)
);
--> statement-breakpoint
CREATE INDEX `sms_orders_upstream_idx` ON `sms_orders` (`provider`,`upstream_id`);