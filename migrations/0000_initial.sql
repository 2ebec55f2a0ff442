CREATE TABLE `allocations` (
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`uid` text NOT NULL,
	PRIMARY KEY(`kind`, `value`)
);
--> statement-breakpoint
CREATE INDEX `allocations_uid` ON `allocations` (`uid`);--> statement-breakpoint
CREATE TABLE `condition_transitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`resource_version` integer NOT NULL,
	`uid` text NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`condition_type` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`reason` text NOT NULL,
	`message` text NOT NULL,
	`observed_generation` integer,
	`last_transition_time` text,
	`recorded_at` text NOT NULL,
	`actor_user` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `condition_transitions_uid_type_rv` ON `condition_transitions` (`uid`,`condition_type`,`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_name_rv` ON `condition_transitions` (`namespace`,`name`,`resource_version`);--> statement-breakpoint
CREATE TABLE `events` (
	`position` integer PRIMARY KEY NOT NULL,
	`resource_version` integer NOT NULL,
	`stream_id` text NOT NULL,
	`stream_version` integer NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`recorded_at` text NOT NULL,
	`actor_user` text NOT NULL,
	`actor_groups` text NOT NULL,
	`user_agent` text NOT NULL,
	`field_manager` text NOT NULL,
	`request_id` text NOT NULL,
	`verb` text NOT NULL,
	`subresource` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_stream_version_unique` ON `events` (`stream_id`,`stream_version`);--> statement-breakpoint
CREATE INDEX `events_name_position` ON `events` (`namespace`,`name`,`position`);--> statement-breakpoint
CREATE INDEX `events_recorded_at` ON `events` (`recorded_at`);--> statement-breakpoint
CREATE TABLE `ingress_intervals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address` text NOT NULL,
	`address_type` text NOT NULL,
	`uid` text NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`from_resource_version` integer NOT NULL,
	`from_time` text NOT NULL,
	`set_by` text NOT NULL,
	`to_resource_version` integer,
	`to_time` text,
	`cleared_by` text
);
--> statement-breakpoint
CREATE INDEX `ingress_intervals_address_from` ON `ingress_intervals` (`address`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_uid_from` ON `ingress_intervals` (`uid`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_open` ON `ingress_intervals` (`uid`) WHERE "ingress_intervals"."to_resource_version" IS NULL;--> statement-breakpoint
CREATE TABLE `service_revisions` (
	`uid` text NOT NULL,
	`resource_version` integer NOT NULL,
	`valid_until` integer,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`recorded_at` text NOT NULL,
	`object` text NOT NULL,
	PRIMARY KEY(`uid`, `resource_version`)
);
--> statement-breakpoint
CREATE INDEX `service_revisions_name_rv` ON `service_revisions` (`namespace`,`name`,`resource_version`);--> statement-breakpoint
CREATE INDEX `service_revisions_valid_until` ON `service_revisions` (`valid_until`);--> statement-breakpoint
CREATE TABLE `services` (
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`uid` text NOT NULL,
	`resource_version` integer NOT NULL,
	`stream_version` integer NOT NULL,
	`object` text NOT NULL,
	PRIMARY KEY(`namespace`, `name`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `services_uid_unique` ON `services` (`uid`);