// The log's row, as every reader of it sees it (either engine): the port's type, which the
// events table's schema is checked against (store/sql/event-columns.ts).
/** One event as the log stores it, column by column: its data and actor groups still JSON text. */
export interface EventRow {
  position: number;
  resourceVersion: number;
  streamId: string;
  streamVersion: number;
  namespace: string;
  name: string;
  type: string;
  /** The event's data, JSON text. */
  data: string;
  recordedAt: string;
  actorUser: string;
  /** The actor's groups, a JSON array's text. */
  actorGroups: string;
  userAgent: string;
  fieldManager: string;
  requestId: string;
  verb: string;
  subresource: string;
}
