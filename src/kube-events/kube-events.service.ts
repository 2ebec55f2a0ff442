// core/v1 Events over the log: LIST (selectors, limit/continue over a snapshot), GET, WATCH.
import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { NotFoundError } from '../domain/errors/domain-errors';
import { FieldSelector, matchesFields, parseFieldSelector, requiredFieldValue } from '../domain/selectors/field-selector';
import { LabelSelector, matchesLabels, parseLabelSelector } from '../domain/selectors/label-selector';
import { ChangeFeed } from '../feed/change-feed';
import { decodeContinue, encodeContinue } from '../queries/continue-token';
import { KUBE_EVENTS } from '../store/ports/kube-events';
import type { KubeEvents } from '../store/ports/kube-events';
import type { RecordedEvent } from '../store/ports/recorded-event';
import { WatchRegistry, WatchRequest } from '../watch/watch-registry';
import type { WatchChange, WatchSources } from '../watch/watch-session';
import { deriveKubeEvent, EVENT_SELECTABLE_FIELDS, eventFieldSet, isReportedAsKubeEvent } from './kube-event-derivation';
import type { KubeEvent } from './kube-event.types';

export interface EventSelection {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface EventList {
  kind: 'EventList';
  apiVersion: 'v1';
  metadata: { resourceVersion: string; continue?: string };
  items: KubeEvent[];
}

interface CompiledSelection {
  namespace?: string;
  labels?: LabelSelector;
  fields?: FieldSelector;
  name?: string;
  uid?: string;
}

const SCAN = 500;

@Injectable()
export class KubeEventsService {
  constructor(
    @Inject(KUBE_EVENTS) private readonly log: KubeEvents,
    private readonly feed: ChangeFeed,
    private readonly registry: WatchRegistry,
  ) {}

  async list(selection: EventSelection, limit?: number, continueToken?: string): Promise<EventList> {
    const s = this.compile(selection);
    const start = continueToken ? decodeContinue(continueToken) : undefined;
    // Pages read up to a fixed position, so they agree without a snapshot.
    const until = start?.resourceVersion ?? (await this.log.head());
    let after = start ? Number(start.after.name) : 0;
    const items: KubeEvent[] = [];
    let more = false;
    for (;;) {
      const page = await this.log.page({ namespace: s.namespace, name: s.name, uid: s.uid, afterPosition: after, untilPosition: until, limit: SCAN });
      for (const recorded of page) {
        if (limit && items.length === limit) {
          more = true;
          break;
        }
        after = recorded.position;
        const event = this.matching(s, recorded);
        if (event) items.push(withoutTypeMeta(event));
      }
      if (more || page.length < SCAN) break;
    }
    const metadata: EventList['metadata'] = { resourceVersion: String(until) };
    if (more) metadata.continue = encodeContinue({ resourceVersion: until, after: { namespace: s.namespace ?? '', name: String(after) } });
    return { kind: 'EventList', apiVersion: 'v1', metadata, items };
  }

  async get(namespace: string, name: string): Promise<KubeEvent> {
    const match = /^(.+)\.([0-9a-f]{16})$/.exec(name);
    const recorded = match ? await this.log.at(parseInt(match[2], 16)) : undefined;
    if (!recorded || recorded.namespace !== namespace || recorded.name !== match![1] || !isReportedAsKubeEvent(recorded)) {
      throw new NotFoundError('events', name);
    }
    return deriveKubeEvent(recorded);
  }

  prepareWatch(selection: EventSelection, request: WatchRequest<KubeEvent>): Promise<(res: ServerResponse) => Promise<void>> {
    const s = this.compile(selection);
    const toChange = (recorded: RecordedEvent): WatchChange<KubeEvent> => {
      const event = this.matching(s, recorded);
      return { resourceVersion: recorded.resourceVersion, event: event ? { type: 'ADDED', object: event } : undefined };
    };
    const sources: WatchSources<KubeEvent> = {
      head: () => this.log.head(),
      currentObjects: async () => {
        const list = await this.list(selection);
        return { objects: list.items.map((e) => ({ kind: 'Event', apiVersion: 'v1', ...e })), resourceVersion: Number(list.metadata.resourceVersion) };
      },
      changesAfter: async (rv, limit) => {
        const page = await this.log.writesAfter(rv, limit);
        return { changes: page.events.map(toChange), complete: page.complete };
      },
      subscribe: (listener, failed) =>
        this.feed.subscribe((write) => {
          for (const recorded of write.events) listener(toChange(recorded));
        }, failed),
      bookmark: (rv) => ({ kind: 'Event', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } }),
    };
    return this.registry.prepare(request, sources, 0);
  }

  private compile(selection: EventSelection): CompiledSelection {
    const fields = selection.fieldSelector ? parseFieldSelector(selection.fieldSelector, EVENT_SELECTABLE_FIELDS) : undefined;
    return {
      namespace: selection.namespace,
      labels: selection.labelSelector ? parseLabelSelector(selection.labelSelector) : undefined,
      fields,
      // Pinned involved objects narrow the scan to an index range.
      name: fields ? requiredFieldValue(fields, 'involvedObject.name') : undefined,
      uid: fields ? requiredFieldValue(fields, 'involvedObject.uid') : undefined,
    };
  }

  private matching(s: CompiledSelection, recorded: RecordedEvent): KubeEvent | undefined {
    if (s.namespace !== undefined && recorded.namespace !== s.namespace) return undefined;
    if (!isReportedAsKubeEvent(recorded)) return undefined;
    const event = deriveKubeEvent(recorded);
    if (s.labels && !matchesLabels(s.labels, undefined)) return undefined;
    if (s.fields && !matchesFields(s.fields, eventFieldSet(event))) return undefined;
    return event;
  }
}

/** List items carry no kind/apiVersion, as in every kube-apiserver list. */
function withoutTypeMeta(event: KubeEvent): KubeEvent {
  const { kind, apiVersion, ...rest } = event;
  void kind;
  void apiVersion;
  return rest;
}
