ALTER TABLE `sms_chains` ADD `markup_basis_points` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_chains` ADD `margin_user_id` text;--> statement-breakpoint
ALTER TABLE `rentals` ADD `margin_kobo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `rentals` ADD `margin_user_id` text;