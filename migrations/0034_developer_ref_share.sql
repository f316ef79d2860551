ALTER TABLE `sms_orders` ADD `ref_share_kobo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `ref_user_id` text;