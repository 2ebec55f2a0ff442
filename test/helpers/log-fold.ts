// Re-folds the whole event log from an open database and compares it with the projections, row
// by row: the check a crash, a replay or an import must pass. Controllers' Events (their own
// streams in the same log) are folded on their own and compared with the live Events table.
import Database from 'better-sqlite3';
import { evolveKubeEvent, initialKubeEventState, type KubeEventState } from '../../src/domain/kube-event/kube-event.evolve';
import { isKubeEventFact } from '../../src/domain/kube-event/kube-event.facts';
import { evolve, initialServiceState, type ServiceState } from '../../src/domain/service.evolve';
import type { ServiceEvent } from '../../src/domain/service.events';
import { decodeStoredText, type StoredText } from '../../src/store/stored-text-codec';
import { eventDataText } from '../../src/store/packed-event-data';

interface EventRow {
  position: number;
  resource_version: number;
  stream_id: string;
  namespace: string;
  name: string;
  type: string;
  data: string;
  packed_data: Buffer | null;
}

export interface FoldReport {
  events: number;
  differences: string[];
  /** Per resourceVersion, the object each write produced (JSON text). */
  revisions: Map<number, string>;
  /**
   * What the API answered for each write: the revision, or for a write that changed the object
   * and then deleted it (the last finalizer removed), the updated object it answered with.
   */
  answers: Map<number, string>;
}

export function foldLogAndCompare(path: string): FoldReport {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT position, resource_version, stream_id, namespace, name, type, data, packed_data FROM events ORDER BY position').all() as EventRow[];
    const states = new Map<string, ServiceState & { namespace: string; name: string }>();
    const revisions = new Map<number, string>();
    const answers = new Map<number, string>();
    const differences: string[] = [];
    const kubeEvents = new Map<string, KubeEventState>();
    for (const row of rows) {
      const event = { type: row.type, data: JSON.parse(eventDataText({ plainData: row.data, packedData: row.packed_data })) as unknown };
      if (isKubeEventFact(event)) {
        kubeEvents.set(row.stream_id, evolveKubeEvent(kubeEvents.get(row.stream_id) ?? initialKubeEventState, event, row.resource_version));
        continue;
      }
      const before = states.get(row.stream_id) ?? { ...initialServiceState, namespace: row.namespace, name: row.name };
      if (row.type === 'ServiceDeleted' && before.object?.metadata.resourceVersion === String(row.resource_version)) {
        answers.set(row.resource_version, JSON.stringify(before.object));
      }
      const next = evolve(before, event as ServiceEvent, row.resource_version);
      states.set(row.stream_id, { ...next, namespace: row.namespace, name: row.name });
      if (row.position === row.resource_version && next.object) {
        revisions.set(row.resource_version, JSON.stringify(next.object));
        answers.set(row.resource_version, JSON.stringify(next.object));
      }
    }
    const live = db.prepare('SELECT uid, object FROM services').all() as { uid: string; object: string }[];
    const liveByUid = new Map(live.map((r) => [r.uid, r.object]));
    for (const [uid, state] of states) {
      const stored = liveByUid.get(uid);
      const folded = state.object ? JSON.stringify(state.object) : undefined;
      if (stored !== folded) differences.push(`services ${state.namespace}/${state.name} (${uid}): projection ${stored ?? 'absent'} != fold ${folded ?? 'absent'}`);
      liveByUid.delete(uid);
    }
    for (const uid of liveByUid.keys()) differences.push(`services row ${uid} has no events`);
    const stored = db.prepare('SELECT resource_version AS rv, object FROM service_revisions').all() as { rv: number; object: StoredText }[];
    for (const { rv, object } of stored) {
      if (revisions.get(rv) !== decodeStoredText(object)) differences.push(`service_revisions rv ${rv} differs from the fold`);
    }
    if (stored.length !== revisions.size) differences.push(`service_revisions has ${stored.length} rows, the fold ${revisions.size}`);
    const liveEvents = new Map((db.prepare('SELECT uid, object FROM kube_events').all() as { uid: string; object: string }[]).map((r) => [r.uid, r.object]));
    for (const [uid, state] of kubeEvents) {
      const folded = state.object ? JSON.stringify(state.object) : undefined;
      if (liveEvents.get(uid) !== folded) differences.push(`kube_events ${uid}: projection ${liveEvents.get(uid) ?? 'absent'} != fold ${folded ?? 'absent'}`);
      liveEvents.delete(uid);
    }
    for (const uid of liveEvents.keys()) differences.push(`kube_events row ${uid} has no facts`);
    return { events: rows.length, differences, revisions, answers };
  } finally {
    db.close();
  }
}
