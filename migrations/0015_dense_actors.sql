-- Dense actors (issue 46): an event's actor user is stored once in repeated_texts and referred to
-- by id, with '' in actor_user, as 0014 did for groups, user agent and field manager; the actor
-- index holds ids, not texts. Rows written before are converted by store/event-data-packing.ts in
-- short transactions beside a running server (packing their data too when 0014's conversion had
-- not reached them). The actor index also finds the rows left, under its NULL key in position
-- order (every unpacked row is one of them): it replaces events_unpacked.
DROP INDEX `events_unpacked`;--> statement-breakpoint
DROP INDEX `events_actor_position`;--> statement-breakpoint
ALTER TABLE `events` ADD `actor_user_id` integer;--> statement-breakpoint
CREATE INDEX `events_actor_position` ON `events` (`actor_user_id`,`position`);--> statement-breakpoint
-- The log stays append-only but for the changes of form: the data moved into packed_data, each
-- repeated text into the id of the same text, every other column as it was.
DROP TRIGGER events_no_update;--> statement-breakpoint
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
WHEN NOT (
  ((NEW.data IS OLD.data AND NEW.packed_data IS OLD.packed_data) OR (OLD.packed_data IS NULL AND NEW.packed_data IS NOT NULL AND NEW.data = ''))
  AND ((NEW.actor_user IS OLD.actor_user AND NEW.actor_user_id IS OLD.actor_user_id)
    OR (OLD.actor_user_id IS NULL AND NEW.actor_user = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.actor_user_id) IS OLD.actor_user))
  AND ((NEW.actor_groups IS OLD.actor_groups AND NEW.actor_groups_id IS OLD.actor_groups_id)
    OR (OLD.actor_groups_id IS NULL AND NEW.actor_groups = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.actor_groups_id) IS OLD.actor_groups))
  AND ((NEW.user_agent IS OLD.user_agent AND NEW.user_agent_id IS OLD.user_agent_id)
    OR (OLD.user_agent_id IS NULL AND NEW.user_agent = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.user_agent_id) IS OLD.user_agent))
  AND ((NEW.field_manager IS OLD.field_manager AND NEW.field_manager_id IS OLD.field_manager_id)
    OR (OLD.field_manager_id IS NULL AND NEW.field_manager = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.field_manager_id) IS OLD.field_manager))
  AND NEW.position IS OLD.position AND NEW.resource_version IS OLD.resource_version AND NEW.stream_id IS OLD.stream_id
  AND NEW.stream_version IS OLD.stream_version AND NEW.namespace IS OLD.namespace AND NEW.name IS OLD.name AND NEW.type IS OLD.type
  AND NEW.recorded_at IS OLD.recorded_at AND NEW.request_id IS OLD.request_id
  AND NEW.verb IS OLD.verb AND NEW.subresource IS OLD.subresource)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;
