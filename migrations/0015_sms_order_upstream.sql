ALTER TABLE `sms_orders` ADD `upstream` text;--> statement-breakpoint
ALTER TABLE `sms_orders` ADD `upstream_account` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `sms_orders_upstream_slots_idx` ON `sms_orders` (`upstream`,`upstream_account`,`status`);