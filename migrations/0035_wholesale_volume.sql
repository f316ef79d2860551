ALTER TABLE `users` ADD `wholesale_volume_kobo` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `wholesale_volume_at` integer;