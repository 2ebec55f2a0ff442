CREATE TABLE `mirror_source` (
	`id` integer PRIMARY KEY NOT NULL,
	`cluster_uid` text NOT NULL,
	`server` text NOT NULL,
	`resource_version` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `observed_writes` (
	`resource_version` integer PRIMARY KEY NOT NULL,
	`source_resource_version` text NOT NULL,
	`via` text NOT NULL,
	`observed_at` text NOT NULL
);
