-- An event's data packed (store/packed-event-data.ts): new rows carry it in packed_data with ''
-- in data; rows written before stay as they are until the conversion (store/event-data-packing.ts)
-- packs them, a few thousand per transaction beside a running server. events_unpacked finds them.
ALTER TABLE `events` ADD `packed_data` blob;--> statement-breakpoint
CREATE INDEX `events_unpacked` ON `events` (`position`) WHERE "events"."packed_data" IS NULL;--> statement-breakpoint
-- The log stays append-only but for that one change of form: a row's data moved into packed_data,
-- every other column as it was (the conversion checks that the packed bytes decode to the text).
DROP TRIGGER events_no_update;--> statement-breakpoint
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT (OLD.packed_data IS NULL AND NEW.packed_data IS NOT NULL AND NEW.data = ''
  AND NEW.position IS OLD.position AND NEW.resource_version IS OLD.resource_version AND NEW.stream_id IS OLD.stream_id
  AND NEW.stream_version IS OLD.stream_version AND NEW.namespace IS OLD.namespace AND NEW.name IS OLD.name AND NEW.type IS OLD.type
  AND NEW.recorded_at IS OLD.recorded_at AND NEW.actor_user IS OLD.actor_user AND NEW.actor_groups IS OLD.actor_groups
  AND NEW.user_agent IS OLD.user_agent AND NEW.field_manager IS OLD.field_manager AND NEW.request_id IS OLD.request_id
  AND NEW.verb IS OLD.verb AND NEW.subresource IS OLD.subresource)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;
