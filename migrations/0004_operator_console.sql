ALTER TABLE `audit_log` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `previous` text;--> statement-breakpoint
CREATE INDEX `audit_log_subject_idx` ON `audit_log` (`subject`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`id`);--> statement-breakpoint
ALTER TABLE `users` ADD `role` text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `blocked_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `email_opt_out_at` integer;