-- Dense actors (issue 46), as SQLite's 0015: an event's actor user stored once in repeated_texts
-- and referred to by id ('' in actor_user); the actor index holds ids. Older rows are converted
-- by store/event-data-packing.ts in short transactions beside running servers (packing their data
-- too when 0012's conversion had not reached them); the actor index also finds the rows left (its
-- NULL key) and replaces events_unpacked. Only a nullable column and an index are added: no
-- rewrite of the table.
DROP INDEX "events_unpacked";--> statement-breakpoint
DROP INDEX "events_actor_position";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor_user_id" bigint;--> statement-breakpoint
CREATE INDEX "events_actor_position" ON "events" USING btree ("actor_user_id","position");--> statement-breakpoint
-- The log stays append-only but for the changes of form: the data moved into packed_data, each
-- repeated text into the id of the same text, every other column as it was.
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND ((NEW.data = OLD.data AND NEW.packed_data IS NOT DISTINCT FROM OLD.packed_data) OR (OLD.packed_data IS NULL AND NEW.packed_data IS NOT NULL AND NEW.data = ''))
     AND ((NEW.actor_user = OLD.actor_user AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id)
       OR (OLD.actor_user_id IS NULL AND NEW.actor_user = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.actor_user_id) IS NOT DISTINCT FROM OLD.actor_user))
     AND ((NEW.actor_groups = OLD.actor_groups AND NEW.actor_groups_id IS NOT DISTINCT FROM OLD.actor_groups_id)
       OR (OLD.actor_groups_id IS NULL AND NEW.actor_groups = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.actor_groups_id) IS NOT DISTINCT FROM OLD.actor_groups))
     AND ((NEW.user_agent = OLD.user_agent AND NEW.user_agent_id IS NOT DISTINCT FROM OLD.user_agent_id)
       OR (OLD.user_agent_id IS NULL AND NEW.user_agent = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.user_agent_id) IS NOT DISTINCT FROM OLD.user_agent))
     AND ((NEW.field_manager = OLD.field_manager AND NEW.field_manager_id IS NOT DISTINCT FROM OLD.field_manager_id)
       OR (OLD.field_manager_id IS NULL AND NEW.field_manager = '' AND (SELECT text FROM repeated_texts WHERE id = NEW.field_manager_id) IS NOT DISTINCT FROM OLD.field_manager))
     AND (to_jsonb(NEW) - 'data' - 'packed_data' - 'actor_user' - 'actor_user_id' - 'actor_groups' - 'actor_groups_id' - 'user_agent' - 'user_agent_id' - 'field_manager' - 'field_manager_id')
       = (to_jsonb(OLD) - 'data' - 'packed_data' - 'actor_user' - 'actor_user_id' - 'actor_groups' - 'actor_groups_id' - 'user_agent' - 'user_agent_id' - 'field_manager' - 'field_manager_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'events are append-only';
END
$$;
--> statement-breakpoint
-- svctrail_append as in 0012_dense_events.sql, but the write's user is stored as the id of its text too.
CREATE OR REPLACE FUNCTION svctrail_append(batch jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  text_user bigint;
  text_groups bigint;
  text_user_agent bigint;
  text_field_manager bigint;
  w jsonb;
  step jsonb;
  head bigint;
  newest text COLLATE "C";
  next_transition bigint;
  next_interval bigint;
  results jsonb[] := '{}';
  moved_names text[] := '{}';
  -- Event names whose write moved: a later write of the name in the batch was decided after it.
  moved_events text[] := '{}';
  cur_uid text;
  cur_version bigint;
  stored_resume text;
  n int;
  rv bigint;
  at text COLLATE "C";
  obj text;
  locked timestamptz;
  appended boolean := false;
BEGIN
  PERFORM pg_advisory_xact_lock(8319395769340735588);
  locked := clock_timestamp();
  SELECT position, recorded_at INTO head, newest FROM events ORDER BY position DESC LIMIT 1;
  head := coalesce(head, 0);
  FOR w IN SELECT value FROM jsonb_array_elements(batch) LOOP
    IF w->>'kind' = 'event' THEN
      IF w ? 'uid' THEN
        SELECT uid, stream_version INTO cur_uid, cur_version FROM kube_events WHERE namespace = w->>'ns' AND name = w->>'name';
        IF (w->>'ns') || '/' || (w->>'name') = ANY(moved_events)
           OR (w->>'expectUid' IS NULL AND FOUND)
           OR (w->>'expectUid' IS NOT NULL AND (NOT FOUND OR cur_uid <> w->>'expectUid' OR cur_version <> (w->>'expectVersion')::bigint)) THEN
          moved_events := array_append(moved_events, (w->>'ns') || '/' || (w->>'name'));
          results := array_append(results, jsonb_build_object('moved', 'object'));
          CONTINUE;
        END IF;
      END IF;
      IF w ? 'resume' THEN
        SELECT events_resource_version INTO stored_resume FROM mirror_source WHERE id = 1;
        IF NOT FOUND OR stored_resume IS DISTINCT FROM w->'resume'->>'after' THEN
          results := array_append(results, jsonb_build_object('resumeMoved', CASE WHEN FOUND THEN stored_resume END, 'found', FOUND));
          CONTINUE;
        END IF;
      END IF;
      at := greatest((w->>'recordedAt') COLLATE "C", newest);
      IF w ? 'resume' THEN
        UPDATE mirror_source SET events_resource_version = w->'resume'->>'resourceVersion', updated_at = at WHERE id = 1;
      END IF;
      IF NOT w ? 'uid' THEN
        results := array_append(results, jsonb_build_object('p', NULL, 'rv', NULL, 't', at));
        CONTINUE;
      END IF;
      rv := head + 1;
      INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
          recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource, packed_data,
          actor_user_id, actor_groups_id, user_agent_id, field_manager_id)
        VALUES (rv, rv, w->>'uid', (w->>'baseVersion')::bigint + 1, w->>'ns', w->>'name', w->>'type', '',
          at, '', '', '', '', w->>'requestId', w->>'verb', w->>'subresource',
          decode(w->>'data', 'base64'), svctrail_text_id(w->>'user'), svctrail_text_id(w->>'groups'), svctrail_text_id(w->>'userAgent'), svctrail_text_id(w->>'fieldManager'));
      IF jsonb_typeof(w->'live') = 'object' THEN
        INSERT INTO kube_events (namespace, name, uid, resource_version, stream_version, object, expires_at)
          VALUES (w->>'ns', w->>'name', w->>'uid', rv, (w->'live'->>'streamVersion')::bigint,
            replace(w->'live'->>'object', w->>'token', rv::text), w->'live'->>'expiresAt')
          ON CONFLICT (namespace, name) DO UPDATE SET uid = excluded.uid, resource_version = excluded.resource_version,
            stream_version = excluded.stream_version, object = excluded.object, expires_at = excluded.expires_at;
      ELSE
        DELETE FROM kube_events WHERE namespace = w->>'ns' AND name = w->>'name' AND uid = w->>'uid';
      END IF;
      INSERT INTO kube_event_occurrences (resource_version, uid, namespace, name, involved_kind, involved_namespace,
          involved_name, involved_uid, type, reason, reporting_controller)
        SELECT rv, o.uid, o.namespace, o.name, o."involvedKind", o."involvedNamespace", o."involvedName", o."involvedUid",
          o.type, o.reason, o."reportingController"
        FROM jsonb_to_record(w->'occurrence') AS o(uid text, namespace text, name text, "involvedKind" text, "involvedNamespace" text,
          "involvedName" text, "involvedUid" text, type text, reason text, "reportingController" text);
      IF w ? 'observation' THEN
        INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at)
          VALUES (rv, w->'observation'->>'sourceResourceVersion', w->'observation'->>'via', w->'observation'->>'observedAt');
      END IF;
      results := array_append(results, jsonb_build_object('p', rv, 'rv', rv, 't', at));
      head := rv;
      newest := at;
      appended := true;
      CONTINUE;
    END IF;
    n := jsonb_array_length(w->'events');
    -- Compare: the live row must be the one the write was decided on, and no earlier write of
    -- the name in this batch may have moved (a later one was decided on the state it was to leave).
    IF n > 0 THEN
      SELECT uid, stream_version INTO cur_uid, cur_version FROM services WHERE namespace = w->>'ns' AND name = w->>'name';
      IF (w->>'ns') || '/' || (w->>'name') = ANY(moved_names)
         OR (w->>'expectUid' IS NULL AND FOUND)
         OR (w->>'expectUid' IS NOT NULL AND (NOT FOUND OR cur_uid <> w->>'expectUid' OR cur_version <> (w->>'expectVersion')::bigint)) THEN
        moved_names := array_append(moved_names, (w->>'ns') || '/' || (w->>'name'));
        results := array_append(results, jsonb_build_object('moved', 'object'));
        CONTINUE;
      END IF;
    END IF;
    -- Compare: no value the write takes was taken meanwhile.
    IF jsonb_array_length(w->'take') > 0 AND EXISTS (
         SELECT 1 FROM jsonb_to_recordset(w->'take') AS t(kind text, value text)
         JOIN allocations a ON a.kind = t.kind AND a.value = t.value) THEN
      moved_names := array_append(moved_names, (w->>'ns') || '/' || (w->>'name'));
      results := array_append(results, jsonb_build_object('moved', 'allocation'));
      CONTINUE;
    END IF;
    -- Mirror mode: the source position must still be the one this observation follows.
    IF w ? 'resume' THEN
      SELECT resource_version INTO stored_resume FROM mirror_source WHERE id = 1;
      IF NOT FOUND OR stored_resume IS DISTINCT FROM w->'resume'->>'after' THEN
        results := array_append(results, jsonb_build_object('resumeMoved', CASE WHEN FOUND THEN stored_resume END, 'found', FOUND));
        CONTINUE;
      END IF;
    END IF;
    -- Never before the newest write's time: time -> resourceVersion lookups rely on it.
    at := greatest((w->>'recordedAt') COLLATE "C", newest);
    IF w ? 'resume' THEN
      UPDATE mirror_source SET resource_version = w->'resume'->>'resourceVersion', updated_at = at WHERE id = 1;
    END IF;
    IF n = 0 THEN
      results := array_append(results, jsonb_build_object('p', NULL, 'rv', NULL, 't', at));
      CONTINUE;
    END IF;
    rv := head + n;
    text_user := svctrail_text_id(w->>'user');
    text_groups := svctrail_text_id(w->>'groups');
    text_user_agent := svctrail_text_id(w->>'userAgent');
    text_field_manager := svctrail_text_id(w->>'fieldManager');
    INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
        recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource, packed_data,
        actor_user_id, actor_groups_id, user_agent_id, field_manager_id)
      SELECT head + e.ord, rv, w->>'uid', (w->>'baseVersion')::bigint + e.ord, w->>'ns', w->>'name', e.value->>'type', '',
        at, '', '', '', '', w->>'requestId', w->>'verb', w->>'subresource',
        decode(e.value->>'data', 'base64'), text_user, text_groups, text_user_agent, text_field_manager
      FROM jsonb_array_elements(w->'events') WITH ORDINALITY AS e(value, ord);
    -- services
    IF w->'service'->>'op' = 'delete' THEN
      DELETE FROM services WHERE uid = w->>'uid';
    ELSE
      obj := replace(w->'service'->>'object', w->>'token', rv::text);
      IF w->'service'->>'op' = 'insert' THEN
        INSERT INTO services (namespace, name, uid, resource_version, stream_version, object)
          VALUES (w->>'ns', w->>'name', w->>'uid', rv, (w->>'baseVersion')::bigint + n, obj);
      ELSE
        UPDATE services SET resource_version = rv, stream_version = (w->>'baseVersion')::bigint + n, object = obj
          WHERE namespace = w->>'ns' AND name = w->>'name';
      END IF;
    END IF;
    -- service_lifetimes and service_revisions
    IF (w->>'born')::boolean THEN
      INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version) VALUES (w->>'uid', w->>'ns', w->>'name', rv);
    END IF;
    IF (w->>'died')::boolean THEN
      UPDATE service_lifetimes SET deleted_resource_version = rv WHERE uid = w->>'uid';
    END IF;
    IF w ? 'revision' THEN
      -- Stored texts whose resourceVersion goes last (the codec's WITH_TAIL): its digits appended.
      INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object, patch)
        VALUES (w->>'uid', rv, w->>'ns', w->>'name', at, decode(w->'revision'->>'object', 'base64') || convert_to(rv::text, 'UTF8'),
          decode(w->'revision'->>'patch', 'base64') || CASE WHEN (w->'revision'->>'patchTail')::boolean THEN convert_to(rv::text, 'UTF8') ELSE ''::bytea END);
    END IF;
    -- condition_transitions: ids follow the greatest, as SQLite picks a rowid
    IF jsonb_array_length(w->'transitions') > 0 THEN
      IF next_transition IS NULL THEN SELECT coalesce(max(id), 0) INTO next_transition FROM condition_transitions; END IF;
      INSERT INTO condition_transitions (id, resource_version, uid, namespace, name, condition_type, from_status, to_status,
          reason, message, observed_generation, last_transition_time, recorded_at, actor_user)
        SELECT next_transition + t.ord, rv, w->>'uid', w->>'ns', w->>'name', t.value->>'conditionType', t.value->>'fromStatus', t.value->>'toStatus',
          t.value->>'reason', t.value->>'message', (t.value->>'observedGeneration')::bigint, t.value->>'lastTransitionTime', at, w->>'user'
        FROM jsonb_array_elements(w->'transitions') WITH ORDINALITY AS t(value, ord);
      next_transition := next_transition + jsonb_array_length(w->'transitions');
    END IF;
    -- ingress_intervals, in event order
    FOR step IN SELECT value FROM jsonb_array_elements(w->'ingress') LOOP
      IF step->>'op' = 'close-all' THEN
        UPDATE ingress_intervals SET to_resource_version = rv, to_time = at, cleared_by = w->>'user'
          WHERE uid = w->>'uid' AND to_resource_version IS NULL;
      ELSIF step->>'op' = 'close' THEN
        UPDATE ingress_intervals SET to_resource_version = rv, to_time = at, cleared_by = w->>'user'
          WHERE uid = w->>'uid' AND address = step->>'address' AND address_type = step->>'addressType' AND to_resource_version IS NULL;
      ELSE
        IF next_interval IS NULL THEN SELECT coalesce(max(id), 0) INTO next_interval FROM ingress_intervals; END IF;
        next_interval := next_interval + 1;
        INSERT INTO ingress_intervals (id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by)
          VALUES (next_interval, step->>'address', step->>'addressType', w->>'uid', w->>'ns', w->>'name', rv, at, w->>'user');
      END IF;
    END LOOP;
    -- allocations: releases, then takes
    IF jsonb_array_length(w->'release') > 0 THEN
      DELETE FROM allocations a USING jsonb_to_recordset(w->'release') AS r(kind text, value text)
        WHERE a.kind = r.kind AND a.value = r.value AND a.uid = w->>'uid';
    END IF;
    IF jsonb_array_length(w->'take') > 0 THEN
      INSERT INTO allocations (kind, value, uid) SELECT t.kind, t.value, w->>'uid' FROM jsonb_to_recordset(w->'take') AS t(kind text, value text);
    END IF;
    IF w ? 'observation' THEN
      INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at)
        VALUES (rv, w->'observation'->>'sourceResourceVersion', w->'observation'->>'via', w->'observation'->>'observedAt');
    END IF;
    results := array_append(results, jsonb_build_object('p', head + 1, 'rv', rv, 't', at));
    head := rv;
    newest := at;
    appended := true;
  END LOOP;
  -- Every replica's log follower hears of the batch at COMMIT; the payload is the head.
  IF appended THEN PERFORM pg_notify('svctrail_writes', head::text); END IF;
  RETURN jsonb_build_object('results', to_jsonb(results), 'held', extract(epoch FROM clock_timestamp() - locked));
END;
$$;
