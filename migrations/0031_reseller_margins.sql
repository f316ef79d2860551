ALTER TABLE `sms_orders` ADD `margin_kobo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `margin_user_id` text;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `kept_refunded_at` integer;