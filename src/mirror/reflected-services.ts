// The Services' reflector's resource: every Service of the source, recorded as Service writes
// (ObservedWriteRecorder), resuming from mirror_source's resource_version.
import { decodeServiceValue } from '../domain/codec/service-decoder';
import { observedObject } from '../domain/mirror/observed-change';
import type { Service } from '../domain/service.types';
import type { MirrorSource } from '../store/ports/mirror-source-store';
import type { ServiceReads } from '../store/ports/service-read-store';
import type { ObservationRecorder } from './observation';
import type { ReflectedResource } from './reflected-resource';

const PAGE = 1000;

export class ReflectedServices implements ReflectedResource<Service> {
  readonly resource = 'services';
  readonly description = 'Services';
  readonly path = '/api/v1/services';

  constructor(
    readonly recorder: ObservationRecorder<Service>,
    private readonly reads: ServiceReads,
  ) {}

  storedPosition(source: MirrorSource | null): string | null {
    return source?.resourceVersion ?? null;
  }

  decode(raw: unknown): { object: Service; resourceVersion?: string } {
    // Lenient: nothing is defaulted or validated (the source accepted it); fields svctrail does not know are kept.
    const { object } = decodeServiceValue({ ...(raw as object), kind: 'Service', apiVersion: 'v1' }, { fieldValidation: 'Ignore', keepUnknownFields: true });
    return { object: observedObject(object), resourceVersion: object.metadata.resourceVersion };
  }

  keyOf(object: Service): { namespace: string; name: string } {
    return { namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' };
  }

  async recordedNames(): Promise<string[]> {
    const names: string[] = [];
    let after: { namespace: string; name: string } | undefined;
    for (;;) {
      const rows = await this.reads.listPage({ limit: PAGE, ...(after ? { after } : {}) });
      for (const row of rows) names.push(`${row.namespace}/${row.name}`);
      if (rows.length < PAGE) return names;
      after = { namespace: rows[rows.length - 1].namespace, name: rows[rows.length - 1].name };
    }
  }
}
