// Watches on Services: the log's changes and the change feed, filtered by namespace and
// selectors into the events one watcher receives.
import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Service } from '../domain/service.types';
import { ChangeFeed } from '../feed/change-feed';
import { SERVICE_CHANGES } from '../store/ports/service-changes';
import type { ServiceChanges } from '../store/ports/service-changes';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReads, ServiceReadStore } from '../store/ports/service-read-store';
import type { CommittedWrite } from '../store/ports/committed-write';
import { isEventWrite } from '../store/ports/committed-event-write';
import { changeFromWrite, ServiceWatchChange } from '../domain/service-change';
import { eventFor, matchesFilter, WatchFilter } from './watch-filter';
import { WatchRegistry, WatchRequest } from './watch-registry';
import type { WatchChange, WatchSources } from './watch-session';

export interface ServiceWatchRequest extends WatchRequest<Service> {
  filter: WatchFilter;
}

@Injectable()
export class ServiceWatchService {
  /** One watch change per write, shared by every watcher (whose encoded lines it then keys). */
  private readonly changes = new WeakMap<CommittedWrite, ServiceWatchChange>();
  constructor(
    private readonly registry: WatchRegistry,
    @Inject(SERVICE_READ_STORE) private readonly store: ServiceReadStore,
    @Inject(SERVICE_CHANGES) private readonly changeLog: ServiceChanges,
    private readonly feed: ChangeFeed,
  ) {}

  async prepare(request: ServiceWatchRequest): Promise<(res: ServerResponse) => Promise<void>> {
    const filter = request.filter;
    const toWatchChange = (change: ServiceWatchChange): WatchChange<Service> => ({
      resourceVersion: change.resourceVersion,
      event: eventFor(filter, change),
    });
    const sources: WatchSources<Service> = {
      head: () => this.store.head(),
      currentObjects: () => this.store.inSnapshot(async (reads) => ({ objects: await this.currentObjects(filter, reads), resourceVersion: await reads.head() })),
      changesAfter: async (rv, limit) => {
        const changes = await this.changeLog.changesAfter(rv, limit);
        return { changes: changes.map(toWatchChange), complete: changes.length < limit };
      },
      // An Event's write is no Service's change: the watcher only hears its resourceVersion go by.
      subscribe: (listener, failed) => this.feed.subscribe((write) => listener(isEventWrite(write) ? { resourceVersion: write.resourceVersion } : toWatchChange(this.changeOf(write))), failed),
      bookmark: (rv) => ({ kind: 'Service', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } }),
    };
    return this.registry.prepare(request, sources, await this.changeLog.oldestResumable());
  }

  private changeOf(write: CommittedWrite): ServiceWatchChange {
    let change = this.changes.get(write);
    if (!change) this.changes.set(write, (change = changeFromWrite(write)));
    return change;
  }

  private async currentObjects(filter: WatchFilter, reads: ServiceReads): Promise<Service[]> {
    const out: Service[] = [];
    let after: { namespace: string; name: string } | undefined;
    for (;;) {
      const page = await reads.listPage({ namespace: filter.namespace, after, limit: 1000 });
      for (const row of page) {
        const object = JSON.parse(row.json) as Service;
        if (matchesFilter(filter, object)) out.push(object);
      }
      if (page.length < 1000) return out;
      after = page[page.length - 1];
    }
  }
}
