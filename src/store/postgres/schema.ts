// The PostgreSQL schema: the same tables as the SQLite one (src/store/schema.ts), column for
// column, so both engines hold the same rows. Generate its migrations into migrations/postgres
// with `npm run db:generate:postgres -- --name <what>`.
//
// Where the engines differ, on purpose:
// - Text is collated "C" (byte order), as SQLite's BINARY: a LIST in (namespace, name) order and
//   a continue token's `>` must agree on both engines whatever the database's locale.
// - Stored JSON (objects, event data) is text, not jsonb: jsonb reorders keys, and GET serves
//   the stored bytes as they are.
// - A revision's object and patch and a compacted revision's managedFields are bytea: stored
//   texts (src/store/stored-text-codec.ts), where SQLite keeps its TEXT columns holding BLOBs.
//   An event's packed data is a BLOB column on both (packed_data).
// - Counters are bigint (an etcd revision is an int64); the pool parses them as numbers.
// - Ingress intervals carry a generated int8range with a GiST index where SQLite keeps an R*Tree
//   by triggers: "intervals overlapping a window" is one index search, open intervals included.
import { sql } from 'drizzle-orm';
import { bigint, customType, index, pgTable, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';

/** Text compared in byte order (SQLite's BINARY collation). */
const text = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/** A stored text's bytes (store/stored-text-codec.ts): the same bytes SQLite stores as a BLOB. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Bigint read as a JS number (positions and versions stay far below 2^53). */
const counter = (name: string) => bigint(name, { mode: 'number' });

/** [from, to) in resourceVersions; an open interval (to IS NULL) reaches infinity. */
const int8range = customType<{ data: string; driverData: string }>({ dataType: () => 'int8range' });

/**
 * Append-only log (kept so by a trigger, migration 0001). `position` is the global order;
 * `resourceVersion` is the position of the last event of the write that appended it.
 */
export const events = pgTable(
  'events',
  {
    position: counter('position').primaryKey(),
    resourceVersion: counter('resource_version').notNull(),
    streamId: text('stream_id').notNull(),
    streamVersion: counter('stream_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    plainData: text('data').notNull(),
    recordedAt: text('recorded_at').notNull(),
    actorUser: text('actor_user').notNull(),
    actorGroups: text('actor_groups').notNull(),
    userAgent: text('user_agent').notNull(),
    fieldManager: text('field_manager').notNull(),
    requestId: text('request_id').notNull(),
    verb: text('verb').notNull(),
    subresource: text('subresource').notNull().default(''),
    packedData: bytea('packed_data'),
    actorGroupsId: counter('actor_groups_id'),
    userAgentId: counter('user_agent_id'),
    fieldManagerId: counter('field_manager_id'),
    actorUserId: counter('actor_user_id'),
  },
  (t) => [
    uniqueIndex('events_stream_version_unique').on(t.streamId, t.streamVersion),
    index('events_name_position').on(t.namespace, t.name, t.position),
    index('events_namespace_position').on(t.namespace, t.position),
    index('events_actor_position').on(t.actorUserId, t.position),
    index('events_type_position').on(t.type, t.position),
  ],
);

/** Each text many events repeat, stored once (see the SQLite schema). */
export const repeatedTexts = pgTable(
  'repeated_texts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    text: text('text').notNull(),
  },
  (t) => [uniqueIndex('repeated_texts_text_unique').on(t.text)],
);

/** Projection: the live object per (namespace, name), exactly as GET serves it. */
export const services = pgTable(
  'services',
  {
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    uid: text('uid').notNull(),
    resourceVersion: counter('resource_version').notNull(),
    streamVersion: counter('stream_version').notNull(),
    object: text('object').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.name] }), uniqueIndex('services_uid_unique').on(t.uid)],
);

/** Projection: every revision of every Service, as written at `resourceVersion`. */
export const serviceRevisions = pgTable(
  'service_revisions',
  {
    uid: text('uid').notNull(),
    resourceVersion: counter('resource_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    recordedAt: text('recorded_at').notNull(),
    object: bytea('object').notNull(),
    /**
     * The RFC 6902 patch from the uid's previous revision to this one (a create: one `add` of the
     * whole object), computed once when the revision is written, as on SQLite, and stored encoded
     * like the object. Never NULL here:
     * no PostgreSQL store predates it.
     */
    patch: bytea('patch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.resourceVersion] })],
);

/** Projection: what a compaction keeps of each revision below its horizon (see the SQLite schema). */
export const revisionFacts = pgTable(
  'revision_facts',
  {
    uid: text('uid').notNull(),
    resourceVersion: counter('resource_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    recordedAt: text('recorded_at').notNull(),
    managedFields: bytea('managed_fields'),
    patch: bytea('patch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.resourceVersion] })],
);

/** Projection: each incarnation of a Service name, from its creation until its deletion. */
export const serviceLifetimes = pgTable(
  'service_lifetimes',
  {
    uid: text('uid').primaryKey(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    createdResourceVersion: counter('created_resource_version').notNull(),
    deletedResourceVersion: counter('deleted_resource_version'),
  },
  (t) => [index('service_lifetimes_name').on(t.namespace, t.name, t.createdResourceVersion)],
);

/** Projection: one row per condition transition (keyed by condition `type`). */
export const conditionTransitions = pgTable(
  'condition_transitions',
  {
    // Assigned by the projection (max + 1 under the append lock), as SQLite assigns a rowid: no
    // gaps from rolled-back writes, so a rebuild from the log reproduces the same ids.
    id: counter('id').primaryKey(),
    resourceVersion: counter('resource_version').notNull(),
    uid: text('uid').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    conditionType: text('condition_type').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reason: text('reason').notNull(),
    message: text('message').notNull(),
    observedGeneration: counter('observed_generation'),
    lastTransitionTime: text('last_transition_time'),
    recordedAt: text('recorded_at').notNull(),
    actorUser: text('actor_user').notNull(),
  },
  (t) => [
    index('condition_transitions_uid_type_rv').on(t.uid, t.conditionType, t.resourceVersion),
    index('condition_transitions_name_rv').on(t.namespace, t.name, t.resourceVersion),
    index('condition_transitions_rv').on(t.resourceVersion),
    index('condition_transitions_namespace_rv').on(t.namespace, t.resourceVersion),
    index('condition_transitions_service').on(t.namespace, t.name, t.uid),
  ],
);

/** Projection: load-balancer ingress addresses as intervals [from, to) of resourceVersions. */
export const ingressIntervals = pgTable(
  'ingress_intervals',
  {
    // Assigned like condition_transitions.id.
    id: counter('id').primaryKey(),
    address: text('address').notNull(),
    addressType: text('address_type').$type<'ip' | 'hostname'>().notNull(),
    uid: text('uid').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    fromResourceVersion: counter('from_resource_version').notNull(),
    fromTime: text('from_time').notNull(),
    setBy: text('set_by').notNull(),
    toResourceVersion: counter('to_resource_version'),
    toTime: text('to_time'),
    clearedBy: text('cleared_by'),
    /** What SQLite's ingress_interval_spans R*Tree holds, kept by PostgreSQL itself. */
    span: int8range('span').generatedAlwaysAs(sql`int8range(from_resource_version, to_resource_version)`),
  },
  (t) => [
    index('ingress_intervals_address_uid_from').on(t.address, t.uid, t.fromResourceVersion),
    index('ingress_intervals_uid_from').on(t.uid, t.fromResourceVersion),
    index('ingress_intervals_open')
      .on(t.uid)
      .where(sql`${t.toResourceVersion} IS NULL`),
    index('ingress_intervals_from').on(t.fromResourceVersion),
    index('ingress_intervals_namespace_from').on(t.namespace, t.fromResourceVersion),
    index('ingress_intervals_name_from').on(t.namespace, t.name, t.fromResourceVersion),
    index('ingress_intervals_span').using('gist', t.span),
  ],
);

/**
 * Projection: cluster IPs and node ports held by live Services. The primary key is what
 * guarantees, across every replica, that no two live Services ever share one.
 */
export const allocations = pgTable(
  'allocations',
  {
    kind: text('kind').$type<'cluster-ip' | 'node-port'>().notNull(),
    value: text('value').notNull(),
    uid: text('uid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.value] }), index('allocations_uid').on(t.uid)],
);

/** Projection: the live core/v1 Events controllers wrote, exactly as GET serves them (see the SQLite schema). */
export const kubeEvents = pgTable(
  'kube_events',
  {
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    uid: text('uid').notNull(),
    resourceVersion: counter('resource_version').notNull(),
    streamVersion: counter('stream_version').notNull(),
    object: text('object').notNull(),
    expiresAt: text('expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.namespace, t.name] }),
    index('kube_events_resource_version').on(t.resourceVersion),
    index('kube_events_namespace_resource_version').on(t.namespace, t.resourceVersion),
    index('kube_events_expires_at')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL`),
  ],
);

/** Projection: one row per write of an Event, kept forever (see the SQLite schema). */
export const kubeEventOccurrences = pgTable(
  'kube_event_occurrences',
  {
    resourceVersion: counter('resource_version').primaryKey(),
    uid: text('uid').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    involvedKind: text('involved_kind').notNull(),
    involvedNamespace: text('involved_namespace').notNull(),
    involvedName: text('involved_name').notNull(),
    involvedUid: text('involved_uid').notNull(),
    type: text('type').notNull(),
    reason: text('reason').notNull(),
    reportingController: text('reporting_controller').notNull(),
  },
  (t) => [index('kube_event_occurrences_involved').on(t.involvedNamespace, t.involvedName, t.resourceVersion), index('kube_event_occurrences_namespace').on(t.namespace, t.resourceVersion)],
);

/** Mirror mode: where each recorded write came from (see the SQLite schema). */
export const observedWrites = pgTable(
  'observed_writes',
  {
    resourceVersion: counter('resource_version').primaryKey(),
    sourceResourceVersion: text('source_resource_version').notNull(),
    via: text('via').notNull(),
    observedAt: text('observed_at').notNull(),
  },
  (t) => [index('observed_writes_source').on(t.sourceResourceVersion)],
);

/** Mirror mode: who made a recorded write, from the audit webhook (see the SQLite schema). */
export const auditActors = pgTable('audit_actors', {
  resourceVersion: counter('resource_version').primaryKey(),
  auditId: text('audit_id').notNull(),
  user: text('user').notNull(),
  groups: text('groups').notNull(),
  userAgent: text('user_agent').notNull(),
  sourceIps: text('source_ips').notNull(),
  verb: text('verb').notNull(),
  requestReceivedAt: text('request_received_at').notNull(),
  identifiedAt: text('identified_at').notNull(),
});

/** Mirror mode: audit events whose write is not recorded yet (see the SQLite schema). */
export const pendingAuditEvents = pgTable(
  'pending_audit_events',
  {
    auditId: text('audit_id').primaryKey(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    sourceResourceVersion: text('source_resource_version').notNull(),
    write: text('write').notNull(),
    receivedAt: text('received_at').notNull(),
  },
  (t) => [index('pending_audit_events_object').on(t.namespace, t.name, t.sourceResourceVersion), index('pending_audit_events_received').on(t.receivedAt)],
);

/** Mirror mode: the source cluster and the resume point (see the SQLite schema). */
export const mirrorSource = pgTable('mirror_source', {
  id: counter('id').primaryKey(),
  clusterUid: text('cluster_uid').notNull(),
  server: text('server').notNull(),
  resourceVersion: text('resource_version'),
  updatedAt: text('updated_at').notNull(),
  eventsResourceVersion: text('events_resource_version'),
});

/** Each compaction of the history (see the SQLite schema). */
export const compactions = pgTable(
  'compactions',
  {
    id: counter('id').primaryKey(),
    horizonResourceVersion: counter('horizon_resource_version').notNull(),
    horizonTime: text('horizon_time').notNull(),
    actorUser: text('actor_user').notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    removedWrites: counter('removed_writes').notNull().default(0),
    removedObjects: counter('removed_objects').notNull().default(0),
    removedBytes: counter('removed_bytes').notNull().default(0),
    factsChecksum: text('facts_checksum'),
    factsChecksumAfter: counter('facts_checksum_after'),
  },
  (t) => [index('compactions_horizon').on(t.horizonResourceVersion)],
);

/**
 * PostgreSQL only (SQLite has one server): the replica that appends for all (src/write-leader),
 * one row, written by the replica holding the write leader's advisory lock, through the session
 * that holds it; the others read where to send their writes and how to know that replica.
 */
export const writeLeader = pgTable('write_leader', {
  id: counter('id').primaryKey(),
  /** Where the other replicas reach it (its --replica-url). */
  url: text('url').notNull(),
  /** What a forwarded write carries to show it comes from a replica of this store; new each term. */
  token: text('token').notNull(),
  /** The CA its serving certificate chains to (PEM), and that certificate's SHA-256 fingerprint. */
  caCertificate: text('ca_certificate').notNull(),
  certificateSha256: text('certificate_sha256').notNull(),
  since: text('since').notNull(),
});
