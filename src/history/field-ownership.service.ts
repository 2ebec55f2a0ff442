// fieldownerships: who owned which field of a Service over time, from the managedFields each
// write left in the log (no Kubernetes server can answer this: it keeps only the current entries).
// Filters: `field` (a path or a prefix of paths, as printed in conflicts: `.status.loadBalancer`),
// `manager`, `at` (owners at that instant), and since/until (intervals overlapping the window).
import { Inject, Injectable, Optional } from '@nestjs/common';
import { MIRROR_OBSERVATIONS } from '../store/ports/mirror-source-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import { WriteSources } from './write-sources';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { CHANGE_HISTORY } from '../store/ports/change-history';
import type { ChangeHistory } from '../store/ports/change-history';
import { HISTORY_API_VERSION } from './history-api';
import { HistoryList, readPage } from './history-list-page';
import { HistoryQuery } from './history-query';
import { HistoryScope, scopeKey } from './history-scope';
import { OwnershipInterval, ownershipIntervals } from './field-ownership-intervals';

const PARAMS = ['field', 'manager', 'at', 'since', 'until', 'limit', 'continue'];

export interface FieldOwnership extends Omit<OwnershipInterval, 'owner'> {
  kind: 'FieldOwnership';
  apiVersion: string;
  metadata: { name: string; namespace: string };
  manager: string;
  operation: 'Apply' | 'Update';
  subresource?: string;
}

const covers = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);

@Injectable()
export class FieldOwnershipService {
  private readonly sources: WriteSources;

  constructor(
    @Inject(CHANGE_HISTORY) private readonly changes: ChangeHistory,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
    /** Mirror mode only: where each recorded write came from. */
    @Optional() @Inject(MIRROR_OBSERVATIONS) observations?: MirrorObservations,
  ) {
    this.sources = new WriteSources(observations);
  }

  async list(scope: HistoryScope, rawQuery: unknown): Promise<HistoryList<FieldOwnership>> {
    const query = HistoryQuery.parse('fieldownerships', rawQuery, PARAMS);
    const field = query.string('field');
    const manager = query.string('manager');
    const at = query.time('at');
    const since = query.time('since');
    const until = query.time('until');
    const keep = (i: OwnershipInterval): boolean =>
      (field === undefined || covers(field, i.field)) &&
      (manager === undefined || i.owner.manager === manager) &&
      (at === undefined || (Date.parse(i.from.time) <= Date.parse(at) && (!i.to || Date.parse(i.to.time) > Date.parse(at)))) &&
      (until === undefined || Date.parse(i.from.time) <= Date.parse(until)) &&
      (since === undefined || !i.to || Date.parse(i.to.time) >= Date.parse(since));
    return this.reads.inSnapshot(async () =>
      readPage({
        listKind: 'FieldOwnershipList',
        scope: scopeKey('fieldownerships', scope),
        query,
        keyShape: ['number'],
        head: await this.reads.head(),
        read: async (snapshot, after, limit) => {
          const start = after ? Number(after[0]) + 1 : 0;
          return (await this.intervals(scope, snapshot))
            .map((interval, index) => ({ interval, index }))
            .filter((row) => row.index >= start && keep(row.interval))
            .slice(0, limit);
        },
        keyOf: (row) => [row.index],
        toItem: async ({ interval, index }) => {
          const item = fieldOwnership(interval, index);
          if (!this.sources.mirrored) return item;
          const found = await this.sources.of([interval.from.resourceVersion, ...(interval.to ? [interval.to.resourceVersion] : [])]);
          const from = found.get(interval.from.resourceVersion)?.source;
          const to = interval.to && found.get(interval.to.resourceVersion)?.source;
          return { ...item, from: { ...item.from, ...(from ? { source: from } : {}) }, ...(item.to ? { to: { ...item.to, ...(to ? { source: to } : {}) } } : {}) };
        },
      }),
    );
  }

  /** Every interval of the scope's Services up to the snapshot, in log order. */
  private async intervals(scope: HistoryScope, snapshot: number): Promise<OwnershipInterval[]> {
    // Only the managedFields of each revision: below a compaction's horizon they are all it keeps.
    // Read with the writes' events in one pass over the scope's index, not a few statements per write.
    return ownershipIntervals(await this.changes.managedFieldsWrites({ ...scope, fromRv: 1, toRv: snapshot, fromPosition: 1 }, Number.MAX_SAFE_INTEGER));
  }
}

function fieldOwnership(interval: OwnershipInterval, index: number): FieldOwnership {
  const { owner, ...rest } = interval;
  return {
    kind: 'FieldOwnership',
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${interval.service.name}.${interval.from.resourceVersion}.${index}`, namespace: interval.service.namespace },
    service: rest.service,
    field: rest.field,
    manager: owner.manager,
    operation: owner.operation,
    ...(owner.subresource ? { subresource: owner.subresource } : {}),
    from: rest.from,
    ...(rest.to ? { to: rest.to } : {}),
  };
}
