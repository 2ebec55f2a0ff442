// The log this replica followed lost its newest writes: the database failed over to a standby
// that had not received them (asynchronous replication). A reader that heard of them cannot go on
// from where it was (those resourceVersions now name other writes, or none): it starts again from
// the log, as a watcher does after 410 Expired.
export class LogRewoundError extends Error {
  constructor(
    readonly delivered: number,
    readonly head: number,
  ) {
    super(`the log was rewound by a database failover: writes up to resourceVersion ${delivered} were heard of, the log now ends at ${head} or holds other writes there`);
  }
}
