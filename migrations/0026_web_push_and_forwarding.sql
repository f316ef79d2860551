CREATE TABLE `channel_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_error` text,
	`next_attempt_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "channel_deliveries_delivered" CHECK(("channel_deliveries"."status" = 'delivered') = ("channel_deliveries"."delivered_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_deliveries_once` ON `channel_deliveries` (`event_id`,`channel`,`target`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_due_idx` ON `channel_deliveries` (`user_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `channel_deliveries_sweep_idx` ON `channel_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`push_muted` text DEFAULT '[]' NOT NULL,
	`hide_code` integer DEFAULT false NOT NULL,
	`forward_email` integer DEFAULT false NOT NULL,
	`forward_webhook_url` text,
	`forward_webhook_secret` text,
	`updated_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`user_agent` text,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	`last_pushed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_session_idx` ON `push_subscriptions` (`session_id`);--> statement-breakpoint
CREATE TABLE `rental_forwarding` (
	`rental_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`email` integer DEFAULT false NOT NULL,
	`webhook_url` text,
	`updated_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`rental_id`) REFERENCES `rentals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `rental_forwarding_user_idx` ON `rental_forwarding` (`user_id`);--> statement-breakpoint
CREATE TABLE `sandbox_push_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`application_server_key` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`private_jwk` text NOT NULL,
	`label` text NOT NULL,
	`expired_at` integer,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_push_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`device_id` text NOT NULL,
	`status` integer NOT NULL,
	`problem` text,
	`ttl` integer,
	`urgency` text,
	`topic` text,
	`tag` text,
	`title` text,
	`body` text,
	`url` text,
	`kind` text,
	`payload` text,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_push_messages_device_idx` ON `sandbox_push_messages` (`device_id`,`received_at`);