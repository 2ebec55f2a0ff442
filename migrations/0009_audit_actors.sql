CREATE TABLE `audit_actors` (
	`resource_version` integer PRIMARY KEY NOT NULL,
	`audit_id` text NOT NULL,
	`user` text NOT NULL,
	`groups` text NOT NULL,
	`user_agent` text NOT NULL,
	`source_ips` text NOT NULL,
	`verb` text NOT NULL,
	`request_received_at` text NOT NULL,
	`identified_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pending_audit_events` (
	`audit_id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`source_resource_version` text NOT NULL,
	`write` text NOT NULL,
	`received_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pending_audit_events_object` ON `pending_audit_events` (`namespace`,`name`,`source_resource_version`);--> statement-breakpoint
CREATE INDEX `pending_audit_events_received` ON `pending_audit_events` (`received_at`);--> statement-breakpoint
CREATE INDEX `observed_writes_source` ON `observed_writes` (`source_resource_version`);