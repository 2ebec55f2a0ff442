-- Dense events (issue 46). An event's data is stored packed (store/packed-event-data.ts) in
-- packed_data with '' in data; its actor's groups, user agent and field manager are stored once in
-- repeated_texts and referred to by id, with '' in their text columns. Rows written before stay as
-- they are until the conversion (store/event-data-packing.ts) converts them, a batch per short
-- transaction beside a running server; events_unpacked holds the rows still to convert.
CREATE TABLE `repeated_texts` (
	`id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repeated_texts_text_unique` ON `repeated_texts` (`text`);--> statement-breakpoint
ALTER TABLE `events` ADD `packed_data` blob;--> statement-breakpoint
ALTER TABLE `events` ADD `actor_groups_id` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `user_agent_id` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `field_manager_id` integer;--> statement-breakpoint
CREATE INDEX `events_unpacked` ON `events` (`position`) WHERE "events"."packed_data" IS NULL;--> statement-breakpoint
-- The log stays append-only but for that one change of form: the data moved into packed_data, each
-- repeated text into the id of the same text, every other column as it was (the conversion also
-- checks that the packed bytes decode to the text).
DROP TRIGGER events_no_update;--> statement-breakpoint
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT (OLD.packed_data IS NULL AND NEW.packed_data IS NOT NULL AND NEW.data = ''
  AND OLD.actor_groups_id IS NULL AND NEW.actor_groups = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.actor_groups_id) IS OLD.actor_groups
  AND OLD.user_agent_id IS NULL AND NEW.user_agent = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.user_agent_id) IS OLD.user_agent
  AND OLD.field_manager_id IS NULL AND NEW.field_manager = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.field_manager_id) IS OLD.field_manager
  AND NEW.position IS OLD.position AND NEW.resource_version IS OLD.resource_version AND NEW.stream_id IS OLD.stream_id
  AND NEW.stream_version IS OLD.stream_version AND NEW.namespace IS OLD.namespace AND NEW.name IS OLD.name AND NEW.type IS OLD.type
  AND NEW.recorded_at IS OLD.recorded_at AND NEW.actor_user IS OLD.actor_user AND NEW.request_id IS OLD.request_id
  AND NEW.verb IS OLD.verb AND NEW.subresource IS OLD.subresource)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;
--> statement-breakpoint
-- Texts are added, never changed or removed: an id once read names its text for good.
CREATE TRIGGER repeated_texts_no_update BEFORE UPDATE ON repeated_texts
BEGIN
  SELECT RAISE(ABORT, 'repeated texts are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER repeated_texts_no_delete BEFORE DELETE ON repeated_texts
BEGIN
  SELECT RAISE(ABORT, 'repeated texts are append-only');
END;
