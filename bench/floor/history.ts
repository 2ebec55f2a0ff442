// The floor's history API: change lists, condition transitions and summaries, ingress intervals,
// owners and conflicts, and the change feed, each built by concatenating stored JSON text.
import type { ServerResponse } from 'node:http';
import type { real } from '../real';
import type { LazyStatement } from './lazy-statement';
import { eventData, storedText } from './stored-text';

const HISTORY_API_VERSION = 'history.svctrail.io/v1alpha1';
/** Go's RFC 3339 second-precision time, as metadata.creationTimestamp carries it. */
const timestamp = (iso: string) => `${iso.slice(0, 19)}Z`;
/** A value as JSON text. */
const q = (v: unknown) => JSON.stringify(v);

type HistoryStatement = 'changesOf' | 'conflictsIn' | 'feedAfter' | 'intervalsOf' | 'lifetime' | 'ownersOf' | 'summaryRows' | 'transitionsOf';

export interface FloorHistoryDeps {
  statements: Record<HistoryStatement, LazyStatement>;
  /** The newest position the floor has committed. */
  head: () => number;
  /** A time → the resourceVersion of the last write recorded at or before it. */
  rvAt: (time: string) => number;
  send: (res: ServerResponse, status: number, body: string, contentType?: string) => void;
  summarizeConditions: ReturnType<typeof real.conditionSummary>['summarizeConditions'];
}

export function floorHistory(deps: FloorHistoryDeps): (res: ServerResponse, path: string, query: URLSearchParams | undefined) => boolean {
  const { changesOf, conflictsIn, feedAfter, intervalsOf, lifetime, ownersOf, summaryRows, transitionsOf } = deps.statements;
  const { head, rvAt, send, summarizeConditions } = deps;
  // --- history items, built by concatenating stored JSON text ---------------------------------
  interface EventRow {
    position: number;
    rv: number;
    uid: string;
    namespace: string;
    name: string;
    type: string;
    data: string;
    /** The packed data (floor/stored-text.ts), null in a row not packed. */
    packed: Buffer | null;
    recordedAt: string;
    user: string;
    groups: string;
    userAgent: string;
    fieldManager: string;
    requestId: string;
    verb: string;
    subresource: string;
    /** A stored text (floor/stored-text.ts). */
    patch: string | Buffer | null;
  }
  /** A deletion writes no revision: its patch replaces the whole object with null. */
  const DELETED_PATCH = '[{"op":"replace","path":"","value":null}]';
  /** One ServiceChange per write: the events as stored, and the patch svctrail stored with the write's revision. */
  const changeItem = (rows: EventRow[]): string => {
    const m = rows[rows.length - 1];
    const events = rows.map((r) => `{"type":${q(r.type)},"data":${eventData(r.data, r.packed)}}`).join(',');
    const patch = m.patch === null ? DELETED_PATCH : storedText(m.patch);
    return (
      `{"kind":"ServiceChange","apiVersion":"${HISTORY_API_VERSION}","metadata":{"name":${q(`${m.name}.${m.rv}`)},"namespace":${q(m.namespace)},` +
      `"resourceVersion":"${m.rv}","creationTimestamp":"${timestamp(m.recordedAt)}"},"service":{"namespace":${q(m.namespace)},"name":${q(m.name)},"uid":${q(m.uid)}},` +
      `"time":${q(m.recordedAt)},"verb":${q(m.verb)},${m.subresource ? `"subresource":${q(m.subresource)},` : ''}` +
      `"actor":{"user":${q(m.user)},"groups":${m.groups},"userAgent":${q(m.userAgent)},"fieldManager":${q(m.fieldManager)},"requestId":${q(m.requestId)}},` +
      `"events":[${events}],"patch":${patch}}`
    );
  };
  /** Groups consecutive event rows of one write (same resourceVersion); stops after `limit` writes. */
  function* writesOf(rows: Iterable<EventRow>, limit: number): Generator<EventRow[]> {
    let group: EventRow[] = [];
    let n = 0;
    for (const row of rows) {
      if (group.length && group[0].rv !== row.rv) {
        yield group;
        if (++n >= limit) return;
        group = [];
      }
      group.push(row);
    }
    if (group.length) yield group;
  }
  interface IntervalRow {
    id: number;
    address: string;
    addressType: string;
    uid: string;
    namespace: string;
    name: string;
    fromRv: number;
    fromTime: string;
    setBy: string;
    toRv: number | null;
    toTime: string | null;
    clearedBy: string | null;
  }
  const span = (r: IntervalRow, snapshot: number) => ({
    address: r.address,
    addressType: r.addressType,
    service: { namespace: r.namespace, name: r.name, uid: r.uid },
    from: { resourceVersion: String(r.fromRv), time: r.fromTime, setBy: r.setBy },
    to: r.toRv === null || r.toRv > snapshot ? null : { resourceVersion: String(r.toRv), time: r.toTime, clearedBy: r.clearedBy },
  });
  const historyList = (kind: string, items: string[], more: boolean, lastKey: string) =>
    `{"kind":"${kind}","apiVersion":"${HISTORY_API_VERSION}","metadata":{"resourceVersion":"${head()}"${
      more ? `,"continue":"${Buffer.from(`${head()}:${lastKey}`).toString('base64url')}"` : ''
    }},"items":[${items.join(',')}]}`;

  const history = (res: ServerResponse, path: string, query: URLSearchParams | undefined): boolean => {
    const limit = Number(query?.get('limit') ?? '') || 500;
    if (path === 'feed') {
      // Every write after `after` up to the head() as of the request, one line each, streamed.
      const after = Number(query?.get('after') ?? '0');
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' });
      let chunk = '';
      for (const write of writesOf(feedAfter.iterate(after, head()) as Iterable<EventRow>, Infinity)) {
        chunk += `${changeItem(write)}\n`;
        if (chunk.length > 64 * 1024) {
          res.write(chunk);
          chunk = '';
        }
      }
      res.end(chunk);
      return true;
    }
    if (path === 'ingressowners') {
      const address = query?.get('address') ?? '';
      const at = query?.get('at');
      const point = (t: string | null | undefined, fallback: number) => (t ? rvAt(new Date(t).toISOString()) : fallback);
      const toRv = point(at ?? query?.get('to'), head());
      const fromRv = at ? toRv : point(query?.get('from'), 0);
      const rows = ownersOf.all({ address, fromRv, toRv, limit: limit + 1 }) as IntervalRow[];
      const items = rows.slice(0, limit).map((r) =>
        JSON.stringify({
          kind: 'IngressOwner',
          apiVersion: HISTORY_API_VERSION,
          metadata: { name: `${r.address}.${r.id}`, resourceVersion: String(r.fromRv), creationTimestamp: timestamp(r.fromTime) },
          ...span(r, head()),
        }),
      );
      send(res, 200, historyList('IngressOwnerList', items, rows.length > limit, String(rows[limit - 1]?.id)));
      return true;
    }
    const parts = path.split('/'); // namespaces/{ns}/{resource} or namespaces/{ns}/services/{name}/{resource}
    if (parts[0] !== 'namespaces') return false;
    const namespace = parts[1];
    if (parts.length === 3 && parts[2] === 'ingressconflicts') {
      const rows = conflictsIn.all({ namespace, limit: limit + 1 }) as Record<string, unknown>[];
      const pick = (row: Record<string, unknown>, p: string) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(([k]) => k.startsWith(p))
            .map(([k, v]) => [k.slice(2), v]),
        ) as unknown as IntervalRow;
      const items = rows.slice(0, limit).map((row) => {
        const a = pick(row, 'a_');
        const b = pick(row, 'b_');
        const first = span(a, head());
        const second = span(b, head());
        const end = [first.to, second.to].filter((e) => e !== null).sort((x, y) => Number(x.resourceVersion) - Number(y.resourceVersion))[0];
        return JSON.stringify({
          kind: 'IngressConflict',
          apiVersion: HISTORY_API_VERSION,
          metadata: { name: `${b.address}.${a.id}.${b.id}`, namespace: b.namespace, resourceVersion: String(b.fromRv), creationTimestamp: timestamp(b.fromTime) },
          address: b.address,
          addressType: b.addressType,
          from: { resourceVersion: second.from.resourceVersion, time: second.from.time },
          to: end ? { resourceVersion: end.resourceVersion, time: end.time } : null,
          holders: [first, second].map(({ service, from, to }) => ({ service, from, to })),
        });
      });
      send(res, 200, historyList('IngressConflictList', items, rows.length > limit, ''));
      return true;
    }
    if (parts.length !== 5 || parts[2] !== 'services') return false;
    const name = parts[3];
    switch (parts[4]) {
      case 'changes': {
        const writes = [...writesOf(changesOf.iterate(namespace, name, 0) as Iterable<EventRow>, limit + 1)];
        const items = writes.slice(0, limit).map(changeItem);
        send(res, 200, historyList('ServiceChangeList', items, writes.length > limit, String(writes[limit - 1]?.[0].rv)));
        return true;
      }
      case 'conditiontransitions': {
        const rows = transitionsOf.all(namespace, name, limit + 1) as (Record<string, unknown> & { id: number; rv: number; recordedAt: string; groups: string })[];
        const items = rows.slice(0, limit).map((r) =>
          JSON.stringify({
            kind: 'ConditionTransition',
            apiVersion: HISTORY_API_VERSION,
            metadata: { name: `${r.name}.${r.id}`, namespace: r.namespace, resourceVersion: String(r.rv), creationTimestamp: timestamp(r.recordedAt) },
            service: { namespace: r.namespace, name: r.name, uid: r.uid },
            conditionType: r.conditionType,
            fromStatus: r.fromStatus,
            toStatus: r.toStatus,
            reason: r.reason,
            message: r.message,
            observedGeneration: r.observedGeneration,
            lastTransitionTime: r.lastTransitionTime,
            time: r.recordedAt,
            actor: { user: r.user, groups: JSON.parse(r.groups), userAgent: r.userAgent, fieldManager: r.fieldManager, requestId: r.requestId },
          }),
        );
        send(res, 200, historyList('ConditionTransitionList', items, rows.length > limit, String(rows[limit - 1]?.id)));
        return true;
      }
      case 'conditionsummaries': {
        // The floor stores no summaries either: one statement reads every transition of the
        // Service and the server's own pure fold (summarizeConditions) computes them.
        const rows = summaryRows.all(namespace, name) as { uid: string; conditionType: string; fromStatus: string | null; toStatus: string | null; recordedAt: string }[];
        const byUid = new Map<string, typeof rows>();
        for (const r of rows) (byUid.get(r.uid) ?? byUid.set(r.uid, []).get(r.uid)!).push(r);
        const now = new Date().toISOString();
        const items = [...byUid].slice(0, limit).map(([uid, list]) => {
          const life = lifetime.get({ uid }) as { createdAt: string | null; deletedAt: string | null };
          const start = life.createdAt ?? now;
          const end = life.deletedAt ?? now;
          const conditions = summarizeConditions(list, { start: Date.parse(start), end: Date.parse(end), flapThreshold: 3, flapWindowMs: 600_000 });
          return JSON.stringify({
            kind: 'ConditionSummary',
            apiVersion: HISTORY_API_VERSION,
            metadata: { name: `${name}.${uid}`, namespace, resourceVersion: String(head()), creationTimestamp: timestamp(start) },
            service: { namespace, name, uid },
            ...(life.deletedAt ? { deletedAt: life.deletedAt } : {}),
            window: { start, end },
            conditions,
          });
        });
        send(res, 200, historyList('ConditionSummaryList', items, false, ''));
        return true;
      }
      case 'ingressintervals': {
        const rows = intervalsOf.all(namespace, name, limit + 1) as IntervalRow[];
        const items = rows.slice(0, limit).map((r) =>
          JSON.stringify({
            kind: 'IngressInterval',
            apiVersion: HISTORY_API_VERSION,
            metadata: { name: `${r.name}.${r.id}`, namespace: r.namespace, resourceVersion: String(r.fromRv), creationTimestamp: timestamp(r.fromTime) },
            ...span(r, head()),
          }),
        );
        send(res, 200, historyList('IngressIntervalList', items, rows.length > limit, String(rows[limit - 1]?.id)));
        return true;
      }
    }
    return false;
  };

  return history;
}
