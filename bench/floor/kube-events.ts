// The floors' Event writes: what client-go's event recorder sends (a POST of a new Event, then a
// strategic-merge PATCH of count, lastTimestamp and message for each repeat), done with the least
// work that leaves the rows svctrail leaves and answers the bytes svctrail answers:
//
//   - parse the body, the minimal checks (a name, the namespace of the URL, the name free — not a
//     live Event nor a name the log hands out for a derived Event — and, for a PATCH, the Event
//     live), no validation of the Event's fields;
//   - the uid, creationTimestamp and the writer's managedFields entry (below), the resourceVersion
//     the write's log position, the lease (expiresAt, svctrail's default --event-ttl of 1 h);
//   - append the fact (KubeEventCreated / KubeEventUpdated, data {object, expiresAt}, the object
//     without its resourceVersion), upsert the live row in kube_events, insert the
//     kube_event_occurrences row, with svctrail's own statements, inside the caller's savepoint of
//     the group commit (one fsync per turn, shared with the status PUTs);
//   - answer the live row's JSON (201 for a POST, 200 for a PATCH).
//
// The floor keeps the key order the client sent (client-go encodes Go's struct order, which is the
// order svctrail's codec re-encodes to) and sets only the metadata it must. managedFields: kube-
// apiserver records the writer's ownership on every Event write, so the answer carries it; the
// floor derives the one entry the recorder's writes leave instead of running a field manager —
// on a POST the writer owns every field it set (involvedObject and related whole, as atomic
// ObjectReferences; metadata's name and namespace never), on a PATCH its own entry's time moves
// (and keys it set for the first time are added). Another manager's entries are left as they
// are (svctrail would move the fields it takes over): bench:check-floor compares the recorder's
// writes byte for byte.
//
// floor-full records the caller as svctrail does (groups, user agent, field manager, a request id)
// and keeps every index; the floor records the user only and drops the indexes it never reads.
import { randomUUID } from 'node:crypto';
import type { LazyStatement } from './lazy-statement';
import { packEventData } from './stored-text';
import { textIds } from './repeated-texts';

/** svctrail's default --event-ttl (the bench starts svctrail without the flag). */
export const EVENT_TTL_MS = 3_600_000;

/** One Event write as the route hands it to the group commit. */
export interface EventWrite {
  verb: 'create' | 'patch';
  namespace: string;
  name: string;
  /** The Event (create) or the merge patch (patch), as parsed. */
  body: Record<string, any>;
  user: string;
  /** floor-full's caller columns (the floor records none of them). */
  groups: string;
  userAgent: string;
  fieldManager: string;
  /** The manager its managedFields entry names (svctrail's managerName of ?fieldManager= or the user agent). */
  manager: string;
}

export interface EventWriteOutcome {
  status: number;
  json: string;
}

export interface FloorKubeEventsDeps {
  prepare: (sql: string) => LazyStatement;
  /** floor-full: svctrail's caller columns and its statement for the log row. */
  full: boolean;
  /** The newest committed position. */
  head: () => number;
  /** The time to record the write at (floor-full: never before the last one). */
  recordingTime: () => string;
  /** The write appended the row at `rv`, recorded at `recordedAt`. */
  appended: (rv: number, recordedAt: string) => void;
}

/** A derived Event's name: `<service>.<16 hex digits of its log position>` (svctrail's kube-events.service.ts). */
const DERIVED_NAME = /^(.+)\.([0-9a-f]{16})$/;
/** A refusal as kube-apiserver words it (only its status code is compared: the floor's errors are not the bench's figures). */
const refusal = (code: number, reason: string, name: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: { name, kind: 'events' }, code });
/** metav1.Time: seconds. */
const seconds = (iso: string) => `${iso.slice(0, 19)}Z`;

/** The FieldsV1 set of what `object` sets: every field not empty, involvedObject and related whole (atomic), sorted as structured-merge-diff writes it. */
export function ownedFields(object: Record<string, unknown>, top = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) {
    if (top && (key === 'kind' || key === 'apiVersion' || key === 'metadata')) continue;
    const v = object[key];
    if (v === null || v === undefined || v === '' || v === 0 || v === false) continue;
    if (typeof v === 'object' && !Array.isArray(v) && !(top && (key === 'involvedObject' || key === 'related'))) {
      const inner = ownedFields(v as Record<string, unknown>, false);
      if (Object.keys(inner).length) out[`f:${key}`] = inner;
    } else out[`f:${key}`] = {};
  }
  return out;
}

/** RFC 7386 merge of `patch` into `target` (a strategic merge of an Event's fields: no list in it has a merge key); whether anything changed. */
function mergeInto(target: Record<string, any>, patch: Record<string, any>): boolean {
  let changed = false;
  for (const key of Object.keys(patch)) {
    if (key.startsWith('$')) throw new Error(`the floor applies no strategic-merge directive (${key})`);
    const v = patch[key];
    if (v === null) {
      if (key in target) {
        delete target[key];
        changed = true;
      }
    } else if (typeof v === 'object' && !Array.isArray(v)) {
      const t = target[key];
      if (t !== null && typeof t === 'object' && !Array.isArray(t)) changed = mergeInto(t, v) || changed;
      else {
        target[key] = {};
        mergeInto(target[key], v);
        changed = true;
      }
    } else if (typeof v === 'object' ? JSON.stringify(target[key]) !== JSON.stringify(v) : target[key] !== v) {
      target[key] = v;
      changed = true;
    }
  }
  return changed;
}

export function floorKubeEvents(deps: FloorKubeEventsDeps): { write: (w: EventWrite) => EventWriteOutcome } {
  const { prepare, full, head, recordingTime, appended } = deps;
  const live = prepare('SELECT uid, stream_version AS streamVersion, object FROM kube_events WHERE namespace = ? AND name = ?');
  const logRowAt = prepare('SELECT namespace, name, type FROM events WHERE position = ?');
  // svctrail's statements: src/store/event-store.ts, src/projections/live-kube-events.projection.ts,
  // src/projections/kube-event-occurrences.projection.ts.
  const insertFact = full
    ? prepare(
        `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
           recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource, packed_data,
           actor_user_id, actor_groups_id, user_agent_id, field_manager_id)
         VALUES (@position, @resourceVersion, @streamId, @streamVersion, @namespace, @name, @type, '',
           @recordedAt, '', '', '', '', @requestId, @verb, @subresource, @packedData, @actorUserId, @actorGroupsId, @userAgentId, @fieldManagerId)`,
      )
    : prepare(
        `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
           recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource)
         VALUES (@position, @resourceVersion, @streamId, @streamVersion, @namespace, @name, @type, @data,
           @recordedAt, @actorUser, '[]', 'floor', 'floor', @requestId, @verb, '')`,
      );
  const textId = full ? textIds(prepare) : undefined;
  const upsertLive = prepare(
    `INSERT INTO kube_events (namespace, name, uid, resource_version, stream_version, object, expires_at)
     VALUES (@namespace, @name, @uid, @resourceVersion, @streamVersion, @object, @expiresAt)
     ON CONFLICT (namespace, name) DO UPDATE SET uid = excluded.uid, resource_version = excluded.resource_version,
       stream_version = excluded.stream_version, object = excluded.object, expires_at = excluded.expires_at`,
  );
  const insertOccurrence = prepare(
    `INSERT INTO kube_event_occurrences (resource_version, uid, namespace, name, involved_kind, involved_namespace, involved_name,
       involved_uid, type, reason, reporting_controller)
     VALUES (@resourceVersion, @uid, @namespace, @name, @involvedKind, @involvedNamespace, @involvedName, @involvedUid, @type, @reason, @reportingController)`,
  );

  /** A name the log hands out for a derived Event (a Service write at that position): never a written Event's. */
  const derivedName = (namespace: string, name: string): boolean => {
    const match = DERIVED_NAME.exec(name);
    if (!match) return false;
    const position = parseInt(match[2], 16);
    if (position > head()) return false;
    const row = logRowAt.get(position) as { namespace: string; name: string; type: string } | undefined;
    return row !== undefined && row.namespace === namespace && row.name === match[1] && !row.type.startsWith('KubeEvent') && row.type !== 'ServiceManagedFieldsChanged';
  };

  const write = (w: EventWrite): EventWriteOutcome => {
    const current = live.get(w.namespace, w.name) as { uid: string; streamVersion: number; object: string } | undefined;
    const now = recordingTime();
    const at = seconds(now);
    const rv = head() + 1;
    let object: Record<string, any>;
    let uid: string;
    let streamVersion: number;
    if (w.verb === 'create') {
      if (current || derivedName(w.namespace, w.name)) return { status: 409, json: refusal(409, 'AlreadyExists', w.name, `events "${w.name}" already exists`) };
      uid = randomUUID();
      streamVersion = 1;
      const fieldsV1 = ownedFields(w.body);
      // The sent metadata minus what the server sets (rest.FillObjectMetaSystemFields), in ObjectMeta's order.
      const {
        name: _name,
        generateName: _generateName,
        namespace: _namespace,
        selfLink: _selfLink,
        uid: _uid,
        resourceVersion: _resourceVersion,
        generation: _generation,
        creationTimestamp: _creationTimestamp,
        deletionTimestamp: _deletionTimestamp,
        deletionGracePeriodSeconds: _grace,
        managedFields: _managedFields,
        ...rest
      } = (w.body.metadata ?? {}) as Record<string, unknown>;
      const metadata: Record<string, unknown> = { name: w.name, namespace: w.namespace, uid, resourceVersion: String(rv), creationTimestamp: at, ...rest };
      if (Object.keys(fieldsV1).length) metadata.managedFields = [{ manager: w.manager, operation: 'Update', apiVersion: 'v1', time: at, fieldsType: 'FieldsV1', fieldsV1 }];
      object = { kind: 'Event', apiVersion: 'v1', ...w.body, metadata };
    } else {
      if (!current) return { status: 404, json: refusal(404, 'NotFound', w.name, `events "${w.name}" not found`) };
      object = JSON.parse(current.object);
      // etcd3 writes nothing when the bytes stay the same: neither does the floor.
      if (!mergeInto(object, w.body)) return { status: 200, json: current.object };
      uid = current.uid;
      streamVersion = current.streamVersion + 1;
      const metadata = object.metadata as Record<string, any>;
      metadata.resourceVersion = String(rv);
      const entries = (metadata.managedFields ??= []) as { manager: string; operation: string; apiVersion: string; time: string; fieldsV1: Record<string, unknown> }[];
      let entry = entries.find((e) => e.manager === w.manager && e.operation === 'Update' && e.apiVersion === 'v1');
      if (!entry) entries.push((entry = { manager: w.manager, operation: 'Update', apiVersion: 'v1', time: at, fieldsType: 'FieldsV1', fieldsV1: {} } as never));
      entry.time = at;
      const set = ownedFields(w.body);
      if (Object.keys(set).some((k) => !(k in entry.fieldsV1))) entry.fieldsV1 = Object.fromEntries(Object.entries({ ...entry.fieldsV1, ...set }).sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    const json = JSON.stringify(object);
    // The fact holds the object without its resourceVersion (the write's position stands for it):
    // the live JSON with that one member cut out (metadata comes before any nested resourceVersion).
    const member = `"resourceVersion":"${rv}",`;
    const cut = json.indexOf(member);
    if (cut < 0) throw new Error(`no ${member} in the Event's JSON`);
    const expiresAt = new Date(Date.parse(now) + EVENT_TTL_MS).toISOString();
    const data = `{"object":${json.slice(0, cut)}${json.slice(cut + member.length)},"expiresAt":"${expiresAt}"}`;
    const type = w.verb === 'create' ? 'KubeEventCreated' : 'KubeEventUpdated';
    insertFact.run({
      position: rv,
      resourceVersion: rv,
      streamId: uid,
      streamVersion,
      namespace: w.namespace,
      name: w.name,
      type,
      ...(full ? { packedData: packEventData(data) } : { data }),
      recordedAt: now,
      ...(full ? {} : { actorUser: w.user }),
      ...(full ? { actorUserId: textId!(w.user), actorGroupsId: textId!(w.groups), userAgentId: textId!(w.userAgent), fieldManagerId: textId!(w.fieldManager), subresource: '' } : {}),
      requestId: full ? randomUUID() : `floor-${rv}`,
      verb: w.verb,
    });
    upsertLive.run({ namespace: w.namespace, name: w.name, uid, resourceVersion: rv, streamVersion, object: json, expiresAt });
    const involved = (object.involvedObject ?? {}) as Record<string, string | undefined>;
    insertOccurrence.run({
      resourceVersion: rv,
      uid,
      namespace: w.namespace,
      name: w.name,
      involvedKind: involved.kind ?? '',
      involvedNamespace: involved.namespace ?? '',
      involvedName: involved.name ?? '',
      involvedUid: involved.uid ?? '',
      type: object.type ?? '',
      reason: object.reason ?? '',
      reportingController: object.reportingComponent || object.source?.component || '',
    });
    appended(rv, now);
    return { status: w.verb === 'create' ? 201 : 200, json };
  };
  return { write };
}
