// LIST with label and field selectors and limit/continue over one snapshot of the log.
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BadRequestError, EXPIRED_LIST, ExpiredError, INCONSISTENT_CONTINUE, InvalidError, TooLargeResourceVersionError, tooOldResourceVersion } from '../domain/errors/domain-errors';
import { fieldErrors, FieldError } from '../domain/errors/field-error';
import { matchesFields, parseFieldSelector, SERVICE_SELECTABLE_FIELDS, serviceFieldSet } from '../domain/selectors/field-selector';
import { matchesLabels, parseLabelSelector } from '../domain/selectors/label-selector';
import type { Service } from '../domain/service.types';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReads, ServiceReadStore } from '../store/ports/service-read-store';
import { decodeContinue, encodeContinue } from './continue-token';
import { ListServicesOptions, ListServicesQuery, ServiceList } from './service.queries';
import { StoredService } from './stored-service';

/** Where a LIST starts: the snapshot it reads (none: the newest), the least resourceVersion it needs, the key it goes on after. */
interface StartingPoint {
  asOf?: number;
  minimum?: number;
  after?: { namespace: string; name: string };
}

/** Rows read per round while filling a page whose items a selector may reject. */
const SCAN_BATCH = 500;

@QueryHandler(ListServicesQuery)
export class ListServicesHandler implements IQueryHandler<ListServicesQuery> {
  constructor(@Inject(SERVICE_READ_STORE) private readonly store: ServiceReadStore) {}

  async execute({ options }: ListServicesQuery): Promise<ServiceList> {
    const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
    const fields = options.fieldSelector ? parseFieldSelector(options.fieldSelector, SERVICE_SELECTABLE_FIELDS) : undefined;
    const matches = (s: Service) => (!labels || matchesLabels(labels, s.metadata.labels)) && (!fields || matchesFields(fields, serviceFieldSet(s)));
    const selective = labels !== undefined || fields !== undefined;
    return this.store.inSnapshot(async (reads) => {
      const point = await this.startingPoint(options, reads);
      const head = await reads.head();
      if (point.minimum !== undefined && point.minimum > head) throw new TooLargeResourceVersionError(point.minimum, head);
      // A snapshot at the head is the current table, never below the horizon: no need to ask.
      if (point.asOf !== undefined && point.asOf < head) await this.refuseBelowHorizon(point, options, reads);
      // The first page of a live LIST reads the current table; later pages read the same snapshot,
      // which is the current table as long as nothing was written since (the head is read in this
      // same snapshot): only a snapshot older than the head is read from the revisions.
      const snapshotRv = point.asOf ?? head;
      const asOf = point.asOf !== undefined && point.asOf < head ? point.asOf : undefined;
      const limit = options.limit && options.limit > 0 ? options.limit : undefined;
      // Stored objects are canonical: items are their stored text, parsed only for a selector.
      const items: StoredService[] = [];
      let after = point.after;
      let more = false;
      // Without a selector every row read is an item: a page reads its items and one more (to know
      // whether to hand out a continue token), not a batch of 500 (and in the past, each row read
      // costs a revision seek).
      const batchSize = !selective && limit !== undefined && limit < SCAN_BATCH ? limit + 1 : SCAN_BATCH;
      for (;;) {
        const batch = await reads.listPage({ namespace: options.namespace, after, asOf, limit: batchSize });
        for (const row of batch) {
          if (limit !== undefined && items.length === limit) {
            more = true;
            break;
          }
          after = { namespace: row.namespace, name: row.name };
          const item = new StoredService(row.json);
          if (!selective || matches(item.object)) items.push(item);
        }
        if (more || batch.length < batchSize) break;
      }
      const metadata: ServiceList['metadata'] = { resourceVersion: String(snapshotRv) };
      if (more && after) metadata.continue = encodeContinue({ resourceVersion: snapshotRv, after });
      return { kind: 'ServiceList', apiVersion: 'v1', metadata, items };
    });
  }

  /** A snapshot below the compaction horizon holds no objects any more: 410, as etcd answers a compacted revision. */
  private async refuseBelowHorizon(point: StartingPoint, options: ListServicesOptions, reads: ServiceReads): Promise<void> {
    const horizon = await reads.horizon();
    if (point.asOf === undefined || point.asOf >= horizon) return;
    if (options.asOfTime !== undefined) throw tooOldResourceVersion(point.asOf, horizon);
    // kube-apiserver hands out a token that goes on from the same key at the newest state (rv -1).
    if (point.after) throw new ExpiredError(INCONSISTENT_CONTINUE, encodeContinue({ resourceVersion: -1, after: point.after }));
    throw new ExpiredError(EXPIRED_LIST);
  }

  private async startingPoint(options: ListServicesOptions, reads: ServiceReads): Promise<StartingPoint> {
    const errors: FieldError[] = [];
    const rv = options.resourceVersion ?? '';
    const match = options.resourceVersionMatch ?? '';
    if (match && !['Exact', 'NotOlderThan'].includes(match)) {
      errors.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match && rv === '') errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (match === 'Exact' && rv === '0') errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    if (options.continue && rv !== '' && rv !== '0') {
      errors.push(fieldErrors.forbidden('resourceVersion', 'specifying resource version is not allowed when using continue'));
    }
    if (match && options.continue) errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (rv !== '' && !/^\d+$/.test(rv)) errors.push(fieldErrors.invalid('resourceVersion', rv, 'must be a non-negative integer'));
    if (errors.length) throw new InvalidError('ListOptions', '', errors, 'meta.k8s.io');
    if (options.asOfTime !== undefined) {
      if (rv !== '' || match || options.continue) throw new BadRequestError('asOf cannot be combined with resourceVersion, resourceVersionMatch or continue');
      const at = await reads.resourceVersionAt(options.asOfTime);
      return { asOf: at, minimum: at };
    }
    if (options.continue) {
      const point = decodeContinue(options.continue);
      // -1: a token handed out with a 410, which goes on at the newest state.
      return point.resourceVersion === -1 ? { after: point.after } : { asOf: point.resourceVersion, after: point.after };
    }
    // Exact reads that snapshot; NotOlderThan (or no match) is served from the newest state.
    if (match === 'Exact') return { asOf: Number(rv), minimum: Number(rv) };
    return rv && rv !== '0' ? { minimum: Number(rv) } : {};
  }
}
