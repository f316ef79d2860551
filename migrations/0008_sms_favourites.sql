CREATE TABLE `sms_favourites` (
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`service_id` text NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`user_id`, `provider`, `service_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
