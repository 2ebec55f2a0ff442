// The SQLite schema. `events` is the truth; every other table is a projection that replay can
// rebuild from it. Generate migrations with `npm run db:generate -- --name <what>`.
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Append-only log. `position` is the global order; `resourceVersion` is the position of the last
 * event of the write that appended it, so every event of one write shares it (an etcd revision).
 */
export const events = sqliteTable(
  'events',
  {
    position: integer('position').primaryKey(),
    resourceVersion: integer('resource_version').notNull(),
    streamId: text('stream_id').notNull(),
    streamVersion: integer('stream_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** The event's data as JSON text in a row written before packed_data (migration 0014); '' in a packed row. */
    plainData: text('data').notNull(),
    recordedAt: text('recorded_at').notNull(),
    actorUser: text('actor_user').notNull(),
    actorGroups: text('actor_groups').notNull(),
    userAgent: text('user_agent').notNull(),
    fieldManager: text('field_manager').notNull(),
    requestId: text('request_id').notNull(),
    verb: text('verb').notNull(),
    subresource: text('subresource').notNull().default(''),
    /**
     * The event's data as a stored text (store/packed-event-data.ts: deflated against the codec's
     * dictionary, 5-6 times smaller), NULL in a row written before it and not yet converted.
     */
    packedData: blob('packed_data', { mode: 'buffer' }),
    /**
     * The actor's groups, user agent and field manager, each the id of its text in
     * repeated_texts (stored once however many events repeat it), with '' in the text column;
     * NULL in a row not converted yet, whose text column holds the value.
     */
    actorGroupsId: integer('actor_groups_id'),
    userAgentId: integer('user_agent_id'),
    fieldManagerId: integer('field_manager_id'),
    /**
     * The actor's user, the same way (migration 0015): the id of its text in repeated_texts, ''
     * in actor_user; NULL in a row not converted yet. Its index is of ids, not texts.
     */
    actorUserId: integer('actor_user_id'),
  },
  (t) => [
    // The optimistic-concurrency guard, and a stream's events in order (stream_version grows
    // with position inside a stream).
    uniqueIndex('events_stream_version_unique').on(t.streamId, t.streamVersion),
    // History API ranges: one index per way a change log is scoped or filtered, each ending in
    // position so a page is a contiguous range. Every index costs every write a page of WAL:
    // there is none by resource_version (a write's events are the positions just before it)
    // nor by recorded_at (it grows with position: a binary search on the primary key).
    index('events_name_position').on(t.namespace, t.name, t.position),
    index('events_namespace_position').on(t.namespace, t.position),
    // Also the conversion's list of the rows still to convert (event-data-packing.ts): those
    // without an actor user id, under the NULL key in position order (none once converted).
    index('events_actor_position').on(t.actorUserId, t.position),
    index('events_type_position').on(t.type, t.position),
  ],
);

/**
 * Each text many events repeat (an actor's groups, a user agent, a field manager), stored once:
 * the events refer to it by id. Rows are added, never changed or removed, so an id once read
 * names its text for good.
 */
export const repeatedTexts = sqliteTable(
  'repeated_texts',
  {
    id: integer('id').primaryKey(),
    text: text('text').notNull(),
  },
  // A write finds the id of each of its texts.
  (t) => [uniqueIndex('repeated_texts_text_unique').on(t.text)],
);

/** Projection: the live object per (namespace, name), exactly as GET serves it. */
export const services = sqliteTable(
  'services',
  {
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    uid: text('uid').notNull(),
    resourceVersion: integer('resource_version').notNull(),
    streamVersion: integer('stream_version').notNull(),
    object: text('object').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.name] }), uniqueIndex('services_uid_unique').on(t.uid)],
);

/**
 * Projection: every revision of every Service, as written at `resourceVersion`. A revision is
 * current until the next one of the same uid (or its lifetime's end): nothing is rewritten when
 * it is superseded, so a write appends one row. "The object as of R" is the newest revision of
 * the uid at or before R: one seek of the primary key.
 */
export const serviceRevisions = sqliteTable(
  'service_revisions',
  {
    uid: text('uid').notNull(),
    resourceVersion: integer('resource_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    recordedAt: text('recorded_at').notNull(),
    object: text('object').notNull(),
    /**
     * The RFC 6902 patch from the uid's previous revision to this one, as the change log serves
     * it (a create: one `add` of the whole object), computed once when the revision is written:
     * history never changes. NULL only in rows written before migration 0007, until the start-up
     * backfill (revision-patch-backfill.ts) has computed theirs.
     */
    patch: text('patch'),
  },
  (t) => [
    primaryKey({ columns: [t.uid, t.resourceVersion] }),
    // Only rows still missing their patch (none once backfilled): start-up finds them without
    // reading the table, and writes never touch this index (a new row always has its patch).
    index('service_revisions_unpatched')
      .on(t.uid, t.resourceVersion)
      .where(sql`${t.patch} IS NULL`),
  ],
);

/**
 * Projection: what a compaction keeps of each revision below its horizon (history-compaction.ts):
 * the patch the change log serves and the managedFields field ownership is folded from. The
 * revision's row moves here from service_revisions, whose object goes; the anchors (the revision
 * current at the horizon of each Service alive then) stay there. Replay rebuilds it by folding
 * the log and bringing the fold to the store's horizon.
 */
export const revisionFacts = sqliteTable(
  'revision_facts',
  {
    uid: text('uid').notNull(),
    resourceVersion: integer('resource_version').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    recordedAt: text('recorded_at').notNull(),
    /** metadata.managedFields of the revision (JSON), NULL when it had none. */
    managedFields: text('managed_fields'),
    patch: text('patch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.resourceVersion] })],
);

/**
 * Projection: each incarnation of a Service name, from its creation until its deletion (null
 * while it lives). Written on create and delete only. A LIST as of R walks the lifetimes of a
 * namespace in name order, not its revisions, so its cost does not grow with history.
 */
export const serviceLifetimes = sqliteTable(
  'service_lifetimes',
  {
    uid: text('uid').primaryKey(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    createdResourceVersion: integer('created_resource_version').notNull(),
    deletedResourceVersion: integer('deleted_resource_version'),
  },
  (t) => [index('service_lifetimes_name').on(t.namespace, t.name, t.createdResourceVersion)],
);

/** Projection: one row per condition transition (keyed by condition `type`). */
export const conditionTransitions = sqliteTable(
  'condition_transitions',
  {
    // Not AUTOINCREMENT: that rewrites sqlite_sequence on every insert; ids only order rows.
    id: integer('id').primaryKey(),
    resourceVersion: integer('resource_version').notNull(),
    uid: text('uid').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    conditionType: text('condition_type').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reason: text('reason').notNull(),
    message: text('message').notNull(),
    observedGeneration: integer('observed_generation'),
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

/**
 * Projection: load-balancer ingress addresses as intervals [from, to) of resourceVersions.
 * Hand-written in the migrations, next to these: the R*Tree of closed intervals
 * (ingress_interval_spans, kept by triggers) and the partial index of open intervals by start
 * (ingress_intervals_open_from), both for window searches across the cluster (migration 0005).
 */
export const ingressIntervals = sqliteTable(
  'ingress_intervals',
  {
    id: integer('id').primaryKey(),
    address: text('address').notNull(),
    addressType: text('address_type', { enum: ['ip', 'hostname'] }).notNull(),
    uid: text('uid').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    fromResourceVersion: integer('from_resource_version').notNull(),
    fromTime: text('from_time').notNull(),
    setBy: text('set_by').notNull(),
    toResourceVersion: integer('to_resource_version'),
    toTime: text('to_time'),
    clearedBy: text('cleared_by'),
  },
  (t) => [
    // By address, then holder: "who held X at T" seeks each holder's intervals (which never
    // overlap one another), so an address assigned 10,000 times answers like one assigned once.
    index('ingress_intervals_address_uid_from').on(t.address, t.uid, t.fromResourceVersion),
    index('ingress_intervals_uid_from').on(t.uid, t.fromResourceVersion),
    index('ingress_intervals_open')
      .on(t.uid)
      .where(sql`${t.toResourceVersion} IS NULL`),
    index('ingress_intervals_from').on(t.fromResourceVersion),
    index('ingress_intervals_namespace_from').on(t.namespace, t.fromResourceVersion),
    index('ingress_intervals_name_from').on(t.namespace, t.name, t.fromResourceVersion),
  ],
);

/**
 * Projection: cluster IPs and node ports held by live Services. The primary key is what
 * guarantees that no two live Services ever share one.
 */
export const allocations = sqliteTable(
  'allocations',
  {
    kind: text('kind', { enum: ['cluster-ip', 'node-port'] }).notNull(),
    value: text('value').notNull(),
    uid: text('uid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.value] }), index('allocations_uid').on(t.uid)],
);

/**
 * Projection: the live core/v1 Events controllers wrote (kube-apiserver's Event store), exactly as
 * GET serves them. `expires_at` is when the --event-ttl lease of the last write runs out (NULL:
 * never, a mirrored Event); the expiry sweep reads the oldest first.
 */
export const kubeEvents = sqliteTable(
  'kube_events',
  {
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    uid: text('uid').notNull(),
    resourceVersion: integer('resource_version').notNull(),
    streamVersion: integer('stream_version').notNull(),
    object: text('object').notNull(),
    expiresAt: text('expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.namespace, t.name] }),
    // LIST pages in resourceVersion order, cluster-wide and per namespace.
    index('kube_events_resource_version').on(t.resourceVersion),
    index('kube_events_namespace_resource_version').on(t.namespace, t.resourceVersion),
    index('kube_events_expires_at')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL`),
  ],
);

/**
 * Projection: one row per write of an Event (creation, repeat, deletion, expiry), kept forever: the
 * history of what controllers said about an object. The Event as written is the log's row at the
 * same position (an Event write is one fact): this table holds only what the history filters by.
 */
export const kubeEventOccurrences = sqliteTable(
  'kube_event_occurrences',
  {
    resourceVersion: integer('resource_version').primaryKey(),
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
  (t) => [
    // An object's Events (a Service's timeline), and a namespace's, each a range in time order.
    index('kube_event_occurrences_involved').on(t.involvedNamespace, t.involvedName, t.resourceVersion),
    index('kube_event_occurrences_namespace').on(t.namespace, t.resourceVersion),
  ],
);

/**
 * Each compaction of the history (not a projection: the log cannot rebuild it, and replay keeps
 * it). The newest horizon is the oldest resourceVersion an object can still be read at; below
 * it only the facts remain. Recorded before anything is removed, counts filled in when done.
 */
export const compactions = sqliteTable(
  'compactions',
  {
    id: integer('id').primaryKey(),
    horizonResourceVersion: integer('horizon_resource_version').notNull(),
    /** recorded_at of the horizon's write. */
    horizonTime: text('horizon_time').notNull(),
    actorUser: text('actor_user').notNull(),
    startedAt: text('started_at').notNull(),
    /** NULL while it runs (or if it was interrupted: the next compaction to the same point finishes it). */
    finishedAt: text('finished_at'),
    removedWrites: integer('removed_writes').notNull().default(0),
    removedObjects: integer('removed_objects').notNull().default(0),
    removedBytes: integer('removed_bytes').notNull().default(0),
    /**
     * sha256 of the facts at or below the horizon (the events, the revisions' kept facts), chained
     * from the checksum of the compaction at facts_checksum_after: what verify checks them against
     * (store/facts-checksum.ts). NULL while it runs.
     */
    factsChecksum: text('facts_checksum'),
    factsChecksumAfter: integer('facts_checksum_after'),
  },
  // The horizon in force (the newest) is read by every read below the live state: one seek.
  (t) => [index('compactions_horizon').on(t.horizonResourceVersion)],
);

/**
 * Mirror mode: where each recorded write came from (not a projection: the log cannot rebuild it,
 * so replay leaves it alone). One row per write the reflector recorded, keyed by svctrail's
 * resourceVersion of that write; the source's own resourceVersion is opaque text.
 */
export const observedWrites = sqliteTable(
  'observed_writes',
  {
    resourceVersion: integer('resource_version').primaryKey(),
    sourceResourceVersion: text('source_resource_version').notNull(),
    /** watch | list | relist */
    via: text('via').notNull(),
    /** When the reflector received it, RFC 3339 with milliseconds. */
    observedAt: text('observed_at').notNull(),
  },
  // The audit join finds a recorded write by the source resourceVersion its audit event names.
  (t) => [index('observed_writes_source').on(t.sourceResourceVersion)],
);

/**
 * Mirror mode: who made a recorded write, as kube-apiserver's audit webhook told it, joined to
 * the write by object and source resourceVersion; `identified_at` is when svctrail learned it
 * (history before then does not know it yet). Facts, not a projection: the log cannot rebuild them.
 */
export const auditActors = sqliteTable('audit_actors', {
  resourceVersion: integer('resource_version').primaryKey(),
  auditId: text('audit_id').notNull(),
  user: text('user').notNull(),
  groups: text('groups').notNull(),
  userAgent: text('user_agent').notNull(),
  sourceIps: text('source_ips').notNull(),
  verb: text('verb').notNull(),
  requestReceivedAt: text('request_received_at').notNull(),
  identifiedAt: text('identified_at').notNull(),
});

/** Mirror mode: audit events whose write is not recorded yet (kept an hour at most). */
export const pendingAuditEvents = sqliteTable(
  'pending_audit_events',
  {
    auditId: text('audit_id').primaryKey(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    sourceResourceVersion: text('source_resource_version').notNull(),
    /** The AuditedWrite, JSON. */
    write: text('write').notNull(),
    receivedAt: text('received_at').notNull(),
  },
  (t) => [index('pending_audit_events_object').on(t.namespace, t.name, t.sourceResourceVersion), index('pending_audit_events_received').on(t.receivedAt)],
);

/**
 * Mirror mode: the one source cluster this store records (told apart by the uid of its
 * default/kubernetes Service) and, for each of its two watches (Services, Events about
 * Services), the last source resourceVersion recorded, written in the same transaction as what
 * it recorded: a restart resumes each watch from its own.
 */
export const mirrorSource = sqliteTable('mirror_source', {
  id: integer('id').primaryKey(),
  clusterUid: text('cluster_uid').notNull(),
  server: text('server').notNull(),
  resourceVersion: text('resource_version'),
  updatedAt: text('updated_at').notNull(),
  /** The Events watch's resume point; null until its first list is recorded. */
  eventsResourceVersion: text('events_resource_version'),
});
