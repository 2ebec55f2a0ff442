DROP INDEX `ingress_intervals_address_from`;--> statement-breakpoint
CREATE INDEX `ingress_intervals_address_uid_from` ON `ingress_intervals` (`address`,`uid`,`from_resource_version`);