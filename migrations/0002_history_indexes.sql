CREATE INDEX `condition_transitions_rv` ON `condition_transitions` (`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_namespace_rv` ON `condition_transitions` (`namespace`,`resource_version`);--> statement-breakpoint
CREATE INDEX `condition_transitions_service` ON `condition_transitions` (`namespace`,`name`,`uid`);--> statement-breakpoint
CREATE INDEX `events_namespace_position` ON `events` (`namespace`,`position`);--> statement-breakpoint
CREATE INDEX `events_stream_position` ON `events` (`stream_id`,`position`);--> statement-breakpoint
CREATE INDEX `events_actor_position` ON `events` (`actor_user`,`position`);--> statement-breakpoint
CREATE INDEX `events_type_position` ON `events` (`type`,`position`);--> statement-breakpoint
CREATE INDEX `events_resource_version` ON `events` (`resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_from` ON `ingress_intervals` (`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_namespace_from` ON `ingress_intervals` (`namespace`,`from_resource_version`);--> statement-breakpoint
CREATE INDEX `ingress_intervals_name_from` ON `ingress_intervals` (`namespace`,`name`,`from_resource_version`);