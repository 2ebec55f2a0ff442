-- Compact encoding of the history's texts (issue 26): a revision's object and patch and a compacted
-- revision's managedFields become stored texts (src/store/stored-text-codec.ts), bytea here where
-- SQLite keeps its TEXT columns holding BLOBs. The rows already there keep their text, as the
-- codec's PLAIN format (a 0 byte, then the UTF-8 text): every reader decodes both, and a replay
-- writes them encoded. svctrail_append (0005) now takes a revision's texts encoded, base64, each
-- but its resourceVersion, which it appends (the codec's WITH_TAIL keeps it last for that).
ALTER TABLE "revision_facts" ALTER COLUMN "managed_fields" SET DATA TYPE bytea USING '\x00'::bytea || convert_to("managed_fields", 'UTF8');--> statement-breakpoint
ALTER TABLE "revision_facts" ALTER COLUMN "patch" SET DATA TYPE bytea USING '\x00'::bytea || convert_to("patch", 'UTF8');--> statement-breakpoint
ALTER TABLE "service_revisions" ALTER COLUMN "object" SET DATA TYPE bytea USING '\x00'::bytea || convert_to("object", 'UTF8');--> statement-breakpoint
ALTER TABLE "service_revisions" ALTER COLUMN "patch" SET DATA TYPE bytea USING '\x00'::bytea || convert_to("patch", 'UTF8');--> statement-breakpoint
-- svctrail_append as in 0005_append_function.sql, but for the revision's texts (above).
CREATE OR REPLACE FUNCTION svctrail_append(batch jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  w jsonb;
  step jsonb;
  head bigint;
  newest text COLLATE "C";
  next_transition bigint;
  next_interval bigint;
  results jsonb[] := '{}';
  moved_names text[] := '{}';
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
    INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
        recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource)
      SELECT head + e.ord, rv, w->>'uid', (w->>'baseVersion')::bigint + e.ord, w->>'ns', w->>'name', e.value->>'type', e.value->>'data',
        at, w->>'user', w->>'groups', w->>'userAgent', w->>'fieldManager', w->>'requestId', w->>'verb', w->>'subresource'
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
