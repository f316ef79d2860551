ALTER TABLE `telegram_deliveries` ADD `message_id` integer;--> statement-breakpoint
ALTER TABLE `telegram_links` ADD `search_country` text;--> statement-breakpoint
ALTER TABLE `notification_settings` ADD `forward_telegram` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `rental_forwarding` ADD `telegram` integer DEFAULT true NOT NULL;