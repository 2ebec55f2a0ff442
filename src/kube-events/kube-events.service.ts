// core/v1 Events as the API serves them: the Events controllers wrote (live, until their TTL runs
// out or they are deleted) beside the Events svctrail derives from the Services' log (one per
// recorded change, kept as long as the log). LIST merges both in log order (each written Event at
// the position of its last write) over one snapshot position; WATCH follows both.
import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { ExpiredError, INCONSISTENT_CONTINUE } from '../domain/errors/domain-errors';
import { parseEventFieldSelector } from '../domain/kube-event/event-field-selector';
import { EVENTS_V1 } from '../domain/kube-event/events-v1-event.types';
import { eventNotFound } from '../domain/kube-event/kube-event.decider';
import { endsKubeEvent, type KubeEventFact } from '../domain/kube-event/kube-event.facts';
import { servedKubeEvent } from '../domain/kube-event/kube-event.evolve';
import { kubeEventFieldSet } from '../domain/kube-event/kube-event-fields';
import type { EventApiVersion, KubeEvent } from '../domain/kube-event/kube-event.types';
import { FieldSelector, matchesFields, requiredFieldValue } from '../domain/selectors/field-selector';
import { LabelSelector, matchesLabels, parseLabelSelector } from '../domain/selectors/label-selector';
import { ChangeFeed } from '../feed/change-feed';
import { decodeContinue, encodeContinue } from '../queries/continue-token';
import { isEventWrite } from '../store/ports/committed-event-write';
import { KUBE_EVENTS } from '../store/ports/kube-events';
import type { KubeEvents } from '../store/ports/kube-events';
import { isEventRecord, isServiceRecord, type LoggedEvent, type RecordedEvent } from '../store/ports/recorded-event';
import { WatchRegistry, WatchRequest } from '../watch/watch-registry';
import type { WatchChange, WatchSources } from '../watch/watch-session';
import { deriveKubeEvent, isReportedAsKubeEvent } from './kube-event-derivation';

export interface EventSelection {
  namespace?: string;
  labelSelector?: string;
  /** In the field labels of `api`. */
  fieldSelector?: string;
  /** The API asked (default core/v1): its field labels, and its group version in bookmarks. */
  api?: EventApiVersion;
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

/** An item of a LIST in log order: the position of the derived Event, or of a written Event's last write. */
interface Positioned {
  position: number;
  event: KubeEvent;
}

const SCAN = 500;

/** A derived Event's name: `<service>.<16 hex digits of its log position>`. */
const DERIVED_NAME = /^(.+)\.([0-9a-f]{16})$/;

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
    // Pages read up to a fixed position: derived Events never change, written ones are read as of it.
    const until = start && start.resourceVersion > 0 ? start.resourceVersion : await this.log.head();
    const after = start ? Number(start.after.name) : 0;
    const derived = this.derivedAfter(s, after, until);
    const written = this.writtenAfter(s, after, until);
    const items: KubeEvent[] = [];
    let last = after;
    let more = false;
    try {
      let d = await derived.next();
      let w = await written.next();
      while (!d.done || !w.done) {
        const takeDerived = w.done || (!d.done && d.value.position < w.value.position);
        const next = (takeDerived ? d.value : w.value) as Positioned;
        if (limit && items.length === limit) {
          more = true;
          break;
        }
        items.push(withoutTypeMeta(next.event));
        last = next.position;
        if (takeDerived) d = await derived.next();
        else w = await written.next();
      }
    } catch (error) {
      if (error instanceof WrittenSinceTooMuch) {
        // kube-apiserver after a compaction: 410 with a token that goes on (inconsistently) from the newest state.
        throw new ExpiredError(INCONSISTENT_CONTINUE, encodeContinue({ resourceVersion: -1, after: { namespace: s.namespace ?? '', name: String(after) } }));
      }
      throw error;
    }
    const metadata: EventList['metadata'] = { resourceVersion: String(until) };
    if (more) metadata.continue = encodeContinue({ resourceVersion: until, after: { namespace: s.namespace ?? '', name: String(last) } });
    return { kind: 'EventList', apiVersion: 'v1', metadata, items };
  }

  /** Every written Event the selection matches, now (deletecollection's items: derived Events are the log's). */
  async listWritten(selection: EventSelection): Promise<EventList> {
    const s = this.compile(selection);
    const until = await this.log.head();
    const items: KubeEvent[] = [];
    for await (const { event } of this.writtenAfter(s, 0, until)) items.push(event);
    return { kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: String(until) }, items };
  }

  /** A written Event by name, else the derived one of that name; the NotFound names the API's resource. */
  async get(namespace: string, name: string, api: EventApiVersion = 'v1'): Promise<KubeEvent> {
    const written = await this.log.written(namespace, name);
    if (written !== undefined) return JSON.parse(written) as KubeEvent;
    const match = DERIVED_NAME.exec(name);
    const recorded = match ? await this.log.at(parseInt(match[2], 16)) : undefined;
    if (!recorded || !isServiceRecord(recorded) || recorded.namespace !== namespace || recorded.name !== match![1] || !isReportedAsKubeEvent(recorded)) {
      throw eventNotFound(name, api);
    }
    return deriveKubeEvent(recorded);
  }

  /** Whether a name is taken by a derived Event (a written one may not take it). */
  async isDerivedName(namespace: string, name: string): Promise<boolean> {
    const match = DERIVED_NAME.exec(name);
    if (!match) return false;
    const recorded = await this.log.at(parseInt(match[2], 16));
    return recorded !== undefined && isServiceRecord(recorded) && recorded.namespace === namespace && recorded.name === match[1] && isReportedAsKubeEvent(recorded);
  }

  prepareWatch(selection: EventSelection, request: WatchRequest<KubeEvent>): Promise<(res: ServerResponse) => Promise<void>> {
    const s = this.compile(selection);
    const sources: WatchSources<KubeEvent> = {
      head: () => this.log.head(),
      currentObjects: async () => {
        const list = await this.list(selection);
        return { objects: list.items.map((e) => ({ kind: 'Event', apiVersion: 'v1', ...e })), resourceVersion: Number(list.metadata.resourceVersion) };
      },
      changesAfter: async (rv, limit) => {
        const page = await this.log.writesAfter(rv, limit);
        const changes: WatchChange<KubeEvent>[] = [];
        for (const recorded of page.events) {
          changes.push(
            isEventRecord(recorded) ? await this.writtenChange(s, recorded, () => this.previousObject(recorded)) : { resourceVersion: recorded.resourceVersion, event: this.derivedEvent(s, recorded) },
          );
        }
        return { changes, complete: page.complete };
      },
      subscribe: (listener, failed) =>
        this.feed.subscribe((write) => {
          if (isEventWrite(write)) {
            listener(writtenChangeOf(s, write.events[0], () => write.before.object));
            return;
          }
          for (const recorded of write.events) listener({ resourceVersion: recorded.resourceVersion, event: this.derivedEvent(s, recorded) });
        }, failed),
      bookmark: (rv) => ({ kind: 'Event', apiVersion: selection.api === 'events.k8s.io/v1' ? EVENTS_V1 : 'v1', metadata: { resourceVersion: String(rv) } }),
    };
    return this.registry.prepare(request, sources, 0);
  }

  private async writtenChange(s: CompiledSelection, recorded: RecordedEvent<KubeEventFact>, previous: () => Promise<KubeEvent | null>): Promise<WatchChange<KubeEvent>> {
    // The previous object matters only to a selector an update may move the Event into or out of.
    const before = s.labels || s.fields ? await previous() : null;
    return writtenChangeOf(s, recorded, () => before);
  }

  private async previousObject(recorded: RecordedEvent<KubeEventFact>): Promise<KubeEvent | null> {
    const fact = await this.log.factBefore(recorded.streamId, recorded.streamVersion);
    return fact && !endsKubeEvent(fact.event) ? servedKubeEvent(fact.event.data.object, fact.resourceVersion) : null;
  }

  private derivedEvent(s: CompiledSelection, recorded: LoggedEvent): WatchChange<KubeEvent>['event'] {
    if (!isServiceRecord(recorded)) return undefined;
    const event = this.matchingDerived(s, recorded);
    return event ? { type: 'ADDED', object: event } : undefined;
  }

  /** Derived Events after a position up to the snapshot, matching, in log order. */
  private async *derivedAfter(s: CompiledSelection, after: number, until: number): AsyncGenerator<Positioned> {
    for (let from = after; ;) {
      const page = await this.log.page({ namespace: s.namespace, name: s.name, uid: s.uid, afterPosition: from, untilPosition: until, limit: SCAN });
      for (const recorded of page) {
        const event = this.matchingDerived(s, recorded);
        if (event) yield { position: recorded.position, event };
      }
      if (page.length < SCAN) return;
      from = page[page.length - 1].position;
    }
  }

  /** Written Events as of the snapshot whose last write then lies after a position, matching, in log order. */
  private async *writtenAfter(s: CompiledSelection, after: number, until: number): AsyncGenerator<Positioned> {
    for (let from = after; ;) {
      const page = await this.log.writtenPage({ namespace: s.namespace, afterPosition: from, untilPosition: until, limit: SCAN });
      if (page === null) throw new WrittenSinceTooMuch();
      for (const { position, json } of page) {
        const event = JSON.parse(json) as KubeEvent;
        if (matches(s, event)) yield { position, event };
      }
      if (page.length < SCAN) return;
      from = page[page.length - 1].position;
    }
  }

  private compile(selection: EventSelection): CompiledSelection {
    const fields = selection.fieldSelector ? parseEventFieldSelector(selection.fieldSelector, selection.api ?? 'v1') : undefined;
    return {
      namespace: selection.namespace,
      labels: selection.labelSelector ? parseLabelSelector(selection.labelSelector) : undefined,
      fields,
      // Pinned involved objects narrow the derived Events' scan to an index range.
      name: fields ? requiredFieldValue(fields, 'involvedObject.name') : undefined,
      uid: fields ? requiredFieldValue(fields, 'involvedObject.uid') : undefined,
    };
  }

  private matchingDerived(s: CompiledSelection, recorded: RecordedEvent): KubeEvent | undefined {
    if (s.namespace !== undefined && recorded.namespace !== s.namespace) return undefined;
    if (!isReportedAsKubeEvent(recorded)) return undefined;
    const event = deriveKubeEvent(recorded);
    return matches(s, event) ? event : undefined;
  }
}

/** Too much was written since a LIST's snapshot to read a continued page as of it. */
class WrittenSinceTooMuch extends Error {}

function matches(s: CompiledSelection, event: KubeEvent): boolean {
  if (s.namespace !== undefined && event.metadata.namespace !== s.namespace) return false;
  if (s.labels && !matchesLabels(s.labels, event.metadata.labels)) return false;
  if (s.fields && !matchesFields(s.fields, kubeEventFieldSet(event))) return false;
  return true;
}

/**
 * A written Event's fact as a watcher with selectors sees it (the watch cache's filtering): an
 * update that moves it into the selection is ADDED, out of it DELETED.
 */
function writtenChangeOf(s: CompiledSelection, recorded: RecordedEvent<KubeEventFact>, previous: () => KubeEvent | null): WatchChange<KubeEvent> {
  const resourceVersion = recorded.resourceVersion;
  const fact = recorded.event;
  const object = servedKubeEvent(fact.data.object, resourceVersion);
  const now = matches(s, object);
  if (endsKubeEvent(fact)) return { resourceVersion, event: now ? { type: 'DELETED', object } : undefined };
  if (fact.type === 'KubeEventCreated') return { resourceVersion, event: now ? { type: 'ADDED', object } : undefined };
  const selective = s.labels !== undefined || s.fields !== undefined;
  const before = selective ? previous() : object;
  const was = before !== null && (!selective || matches(s, before));
  if (now) return { resourceVersion, event: { type: was ? 'MODIFIED' : 'ADDED', object } };
  return { resourceVersion, event: was ? { type: 'DELETED', object } : undefined };
}

/** List items carry no kind/apiVersion, as in every kube-apiserver list. */
function withoutTypeMeta(event: KubeEvent): KubeEvent {
  const { kind, apiVersion, ...rest } = event;
  void kind;
  void apiVersion;
  return rest;
}
