CREATE TABLE `kube_event_occurrences` (
	`resource_version` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`involved_kind` text NOT NULL,
	`involved_namespace` text NOT NULL,
	`involved_name` text NOT NULL,
	`involved_uid` text NOT NULL,
	`type` text NOT NULL,
	`reason` text NOT NULL,
	`reporting_controller` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kube_event_occurrences_involved` ON `kube_event_occurrences` (`involved_namespace`,`involved_name`,`resource_version`);--> statement-breakpoint
CREATE INDEX `kube_event_occurrences_namespace` ON `kube_event_occurrences` (`namespace`,`resource_version`);--> statement-breakpoint
CREATE TABLE `kube_events` (
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`uid` text NOT NULL,
	`resource_version` integer NOT NULL,
	`stream_version` integer NOT NULL,
	`object` text NOT NULL,
	`expires_at` text,
	PRIMARY KEY(`namespace`, `name`)
);
--> statement-breakpoint
CREATE INDEX `kube_events_resource_version` ON `kube_events` (`resource_version`);--> statement-breakpoint
CREATE INDEX `kube_events_namespace_resource_version` ON `kube_events` (`namespace`,`resource_version`);--> statement-breakpoint
CREATE INDEX `kube_events_expires_at` ON `kube_events` (`expires_at`) WHERE "kube_events"."expires_at" IS NOT NULL;