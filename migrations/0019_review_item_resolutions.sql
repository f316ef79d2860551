CREATE TABLE `review_item_resolutions` (
	`item_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`outcome` text NOT NULL,
	`amount_kobo` integer,
	`operator_id` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) NOT NULL
);
