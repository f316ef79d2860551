ALTER TABLE `rentals` ADD `ref_share_kobo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `rentals` ADD `ref_user_id` text;