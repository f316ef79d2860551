CREATE TABLE `operator_approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`payload` text NOT NULL,
	`reason` text NOT NULL,
	`request_key` text NOT NULL,
	`requested_by` text NOT NULL,
	`requested_by_email` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` text,
	`decided_by_email` text,
	`decision_reason` text,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	CONSTRAINT "operator_approvals_second_operator" CHECK("operator_approvals"."status" <> 'approved' OR "operator_approvals"."decided_by" <> "operator_approvals"."requested_by"),
	CONSTRAINT "operator_approvals_decided" CHECK(("operator_approvals"."status" = 'pending') = ("operator_approvals"."decided_by" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_approvals_request_key_unique` ON `operator_approvals` (`request_key`);--> statement-breakpoint
CREATE INDEX `operator_approvals_status_idx` ON `operator_approvals` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `password_change_required_at` integer;