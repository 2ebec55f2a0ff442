// The log's row, as every reader of it sees it (either engine): the port's type, which the
// events table's schema is checked against (store/sql/event-columns.ts).
import type { LogPlace } from './recorded-event';

/** Who wrote an event, as the log's columns store it (and the projections that copy them). */
export interface StoredActor {
  recordedAt: string;
  actorUser: string;
  /** The actor's groups, a JSON array's text. */
  actorGroups: string;
  userAgent: string;
  fieldManager: string;
  requestId: string;
}

/** One event as the log means it, column by column: its data and actor groups JSON text (what export writes). */
export interface EventRow extends LogPlace, StoredActor {
  type: string;
  /** The event's data, JSON text. */
  data: string;
  verb: string;
  subresource: string;
}

/** The two columns an event's data is in (store/packed-event-data.ts). */
export interface StoredEventData {
  /** The JSON text, in a row not packed yet; '' in a packed row. */
  plainData: string;
  /** The packed JSON text; null in a row not packed yet. */
  packedData: Buffer | null;
}

/** The repeated-text columns of an events row as read: the id (store/repeated-text-cache.ts resolves it), or in a row not converted yet the text. */
export interface RepeatedTextFields {
  actorUser: string;
  actorUserId: number | null;
  actorGroups: string;
  actorGroupsId: number | null;
  userAgent: string;
  userAgentId: number | null;
  fieldManager: string;
  fieldManagerId: number | null;
}

/**
 * One event as the log stores it: its data packed, or not yet (packed-event-data.ts); its actor's
 * user, groups, user agent and field manager by the id of their text in repeated_texts (the text
 * column '' then), or not yet (the id null).
 */
export type StoredEventRow = Omit<EventRow, 'data'> & StoredEventData & RepeatedTextFields;
