ALTER TABLE `rentals` ADD `upstream` text DEFAULT 'smsman' NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `number_choice` text;