CREATE TABLE `delivery_dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`delivery_id` text,
	`reason` text NOT NULL,
	`attempts` integer NOT NULL,
	`created_at` integer NOT NULL,
	`replayed_at` integer,
	`replayed_by` text
);
--> statement-breakpoint
CREATE INDEX `delivery_dead_letters_open_idx` ON `delivery_dead_letters` (`replayed_at`,`created_at`);