ALTER TABLE `payment_reviews` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `rentals` ADD `upstream` text;--> statement-breakpoint
ALTER TABLE `rentals` ADD `upstream_account` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `rentals` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `review_item_resolutions` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `sms_chains` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `move_id` text;--> statement-breakpoint
ALTER TABLE `transfer_deposits` ADD `move_id` text;