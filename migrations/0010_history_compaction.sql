-- Compaction (issue 26): the record of each compaction, and what a compaction keeps of the
-- revisions it moves below its horizon (their patch and managedFields; the object goes).
CREATE TABLE `compactions` (
	`id` integer PRIMARY KEY NOT NULL,
	`horizon_resource_version` integer NOT NULL,
	`horizon_time` text NOT NULL,
	`actor_user` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`removed_writes` integer DEFAULT 0 NOT NULL,
	`removed_objects` integer DEFAULT 0 NOT NULL,
	`removed_bytes` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `compactions_horizon` ON `compactions` (`horizon_resource_version`);--> statement-breakpoint
CREATE TABLE `revision_facts` (
	`uid` text NOT NULL,
	`resource_version` integer NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`recorded_at` text NOT NULL,
	`managed_fields` text,
	`patch` text NOT NULL,
	PRIMARY KEY(`uid`, `resource_version`)
);
