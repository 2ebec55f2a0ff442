// compactions: every compaction of the history, oldest first — its horizon (the oldest
// resourceVersion whose objects stay readable, and that write's time), what it removed, who ran
// it and when. A compaction is history too: the list is never compacted.
import { Inject, Injectable } from '@nestjs/common';
import { HISTORY_COMPACTOR } from '../store/ports/history-compaction';
import type { Compaction, HistoryCompactor } from '../store/ports/history-compaction';
import { HISTORY_READ_STORE } from '../store/ports/history-stores';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { HISTORY_API_VERSION } from './history-api';
import { readPage, type HistoryList } from './history-list-page';
import { HistoryQuery } from './history-query';

export interface CompactionItem {
  kind: 'Compaction';
  apiVersion: string;
  metadata: { name: string; creationTimestamp: string };
  horizon: Compaction['horizon'];
  removed: Compaction['removed'];
  actor: Compaction['actor'];
  startedAt: string;
  /** Absent while it runs. */
  finishedAt?: string;
  /** What `svctrail verify` checks the log below the horizon against. */
  facts?: Compaction['facts'];
}

@Injectable()
export class CompactionsService {
  constructor(
    @Inject(HISTORY_COMPACTOR) private readonly compactor: HistoryCompactor,
    @Inject(HISTORY_READ_STORE) private readonly reads: ServiceReadStore,
  ) {}

  async list(rawQuery: unknown): Promise<HistoryList<CompactionItem>> {
    const query = HistoryQuery.parse('compactions', rawQuery, ['limit', 'continue']);
    return readPage({
      listKind: 'CompactionList',
      scope: 'compactions',
      query,
      keyShape: ['number'],
      head: await this.reads.head(),
      read: async (_snapshot, after, limit) => (await this.compactor.list()).filter((c) => after === undefined || c.id > Number(after[0])).slice(0, limit),
      keyOf: (c) => [c.id],
      toItem: compactionItem,
    });
  }
}

/** A compaction as the history API shows it (the compactions list, and the feed). */
export function compactionItem(c: Compaction): CompactionItem {
  return {
    kind: 'Compaction',
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `compaction-${c.id}`, creationTimestamp: c.startedAt },
    horizon: c.horizon,
    removed: c.removed,
    actor: c.actor,
    startedAt: c.startedAt,
    ...(c.finishedAt ? { finishedAt: c.finishedAt } : {}),
    ...(c.facts ? { facts: c.facts } : {}),
  };
}
