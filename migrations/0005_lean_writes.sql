CREATE TABLE `service_lifetimes` (
	`uid` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`created_resource_version` integer NOT NULL,
	`deleted_resource_version` integer
);
--> statement-breakpoint
CREATE INDEX `service_lifetimes_name` ON `service_lifetimes` (`namespace`,`name`,`created_resource_version`);--> statement-breakpoint
DROP INDEX `events_recorded_at`;--> statement-breakpoint
DROP INDEX `events_stream_position`;--> statement-breakpoint
DROP INDEX `events_resource_version`;--> statement-breakpoint
DROP INDEX `service_revisions_name_rv`;--> statement-breakpoint
DROP INDEX `service_revisions_valid_until`;--> statement-breakpoint
DROP INDEX `service_revisions_open`;--> statement-breakpoint
ALTER TABLE `service_revisions` DROP COLUMN `valid_until`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_condition_transitions` (
	`id` integer PRIMARY KEY NOT NULL,
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
INSERT INTO `__new_condition_transitions`("id", "resource_version", "uid", "namespace", "name", "condition_type", "from_status", "to_status", "reason", "message", "observed_generation", "last_transition_time", "recorded_at", "actor_user") SELECT "id", "resource_version", "uid", "namespace", "name", "condition_type", "from_status", "to_status", "reason", "message", "observed_generation", "last_transition_time", "recorded_at", "actor_user" FROM `condition_transitions`;--> statement-breakpoint
DROP TABLE `condition_transitions`;--> statement-breakpoint
ALTER TABLE `__new_condition_transitions` RENAME TO `condition_transitions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `condition_transitions_uid_type_rv` ON `condition_transitions` (`uid`,`condition_type`,`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_name_rv` ON `condition_transitions` (`namespace`,`name`,`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_rv` ON `condition_transitions` (`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_namespace_rv` ON `condition_transitions` (`namespace`,`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_service` ON `condition_transitions` (`namespace`,`name`,`uid`);--> statement-breakpoint
CREATE TABLE `__new_ingress_intervals` (
	`id` integer PRIMARY KEY NOT NULL,
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
INSERT INTO `__new_ingress_intervals`("id", "address", "address_type", "uid", "namespace", "name", "from_resource_version", "from_time", "set_by", "to_resource_version", "to_time", "cleared_by") SELECT "id", "address", "address_type", "uid", "namespace", "name", "from_resource_version", "from_time", "set_by", "to_resource_version", "to_time", "cleared_by" FROM `ingress_intervals`;--> statement-breakpoint
DROP TABLE `ingress_intervals`;--> statement-breakpoint
ALTER TABLE `__new_ingress_intervals` RENAME TO `ingress_intervals`;--> statement-breakpoint
CREATE INDEX `ingress_intervals_address_from` ON `ingress_intervals` (`address`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_uid_from` ON `ingress_intervals` (`uid`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_open` ON `ingress_intervals` (`uid`) WHERE "ingress_intervals"."to_resource_version" IS NULL;--> statement-breakpoint
CREATE INDEX `ingress_intervals_from` ON `ingress_intervals` (`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_namespace_from` ON `ingress_intervals` (`namespace`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_name_from` ON `ingress_intervals` (`namespace`,`name`,`from_resource_version`);--> statement-breakpoint
-- Lifetimes of the Services already in the log (created and, if so, deleted).
INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version, deleted_resource_version)
  SELECT c.stream_id, c.namespace, c.name, c.resource_version,
    (SELECT d.resource_version FROM events d WHERE d.stream_id = c.stream_id AND d.type = 'ServiceDeleted')
  FROM events c WHERE c.type = 'ServiceCreated';
--> statement-breakpoint
-- Open intervals: closing one on a write finds it by uid; a window search finds them by start.
CREATE INDEX `ingress_intervals_open_from` ON `ingress_intervals` (`from_resource_version`) WHERE "ingress_intervals"."to_resource_version" IS NULL;
--> statement-breakpoint
-- The R*Tree now holds closed intervals only: an interval enters it once, when it is closed,
-- instead of being inserted reaching 1e30 and moved on close (six pages of WAL per write).
-- Open intervals are searched through ingress_intervals_open_from.
DELETE FROM ingress_interval_spans;
--> statement-breakpoint
INSERT INTO ingress_interval_spans (id, from_rv, to_rv)
  SELECT id, from_resource_version, to_resource_version FROM ingress_intervals WHERE to_resource_version IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_insert AFTER INSERT ON ingress_intervals WHEN NEW.to_resource_version IS NOT NULL
BEGIN
  INSERT INTO ingress_interval_spans (id, from_rv, to_rv) VALUES (NEW.id, NEW.from_resource_version, NEW.to_resource_version);
END;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_close AFTER UPDATE OF to_resource_version ON ingress_intervals
  WHEN OLD.to_resource_version IS NULL AND NEW.to_resource_version IS NOT NULL
BEGIN
  INSERT INTO ingress_interval_spans (id, from_rv, to_rv) VALUES (NEW.id, NEW.from_resource_version, NEW.to_resource_version);
END;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_delete AFTER DELETE ON ingress_intervals
BEGIN
  DELETE FROM ingress_interval_spans WHERE id = OLD.id;
END;
