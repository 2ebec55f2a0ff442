// The server's own code, loaded from the compiled dist/ (what `node dist/main.js` runs), typed
// from src/. The generator and the replay measurement use it in-process so that what they
// write and fold is byte for byte what the server writes and folds.
import { join } from 'node:path';
import type * as ClusterIPRangeModule from '../src/domain/allocation/cluster-ip-range';
import type * as NodePortRangeModule from '../src/domain/allocation/node-port-range';
import type * as DeciderModule from '../src/domain/service.decider';
import type * as EvolveModule from '../src/domain/service.evolve';
import type * as ServiceBodyModule from '../src/kube-api/service-body';
import type * as ProjectionRebuildModule from '../src/projections/projection-rebuild';
import type * as ProjectorModule from '../src/projections/projector';
import type * as DatabaseModule from '../src/store/database';
import type * as EventStoreModule from '../src/store/event-store';
import type * as ServiceRepositoryModule from '../src/store/service-repository';
import type * as DataDirModule from '../src/tls/data-dir';
import type * as KubeEnvelopeModule from '../src/domain/codec/protobuf/kube-envelope';
import type * as KubeObjectProtobufModule from '../src/domain/codec/protobuf/kube-object-protobuf';
import type * as ConditionSummaryModule from '../src/domain/condition-summary';
import type * as StatusDiffModule from '../src/domain/status-diff';
import type * as ConditionAuditModule from '../src/projections/condition-audit.projection';
import type * as IngressAddressesModule from '../src/projections/ingress-addresses';
import type * as FieldManagerModule from '../src/domain/field-management/field-manager';
import type * as JsonPatchDiffModule from '../src/domain/json-patch-diff';
import type * as StoredTextCodecModule from '../src/store/stored-text-codec';
import type * as PackedEventDataModule from '../src/store/packed-event-data';
import type * as StoredTextDictionaryModule from '../src/store/stored-text-dictionary';
import type * as EventDataDictionaryModule from '../src/store/event-data-dictionary';

/** The project root (bench/dist/ → ../..). */
export const ROOT = join(__dirname, '..', '..');
export const MIGRATIONS = join(ROOT, 'migrations');

/** Whose dist/ `real` loads: this tree's, unless bench/ab.ts points it at another build (before the first load). */
let distRoot = ROOT;
export function loadDistFrom(root: string): void {
  distRoot = root;
}

function load<T>(relative: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server's compiled dist/, loaded by path at run time
    return require(join(distRoot, 'dist', relative)) as T;
  } catch (error) {
    throw new Error(`cannot load dist/${relative} (run \`npx nest build\` first): ${(error as Error).message}`, { cause: error });
  }
}

export const real = {
  database: () => load<typeof DatabaseModule>('store/database.js'),
  eventStore: () => load<typeof EventStoreModule>('store/event-store.js'),
  repository: () => load<typeof ServiceRepositoryModule>('store/service-repository.js'),
  projector: () => load<typeof ProjectorModule>('projections/projector.js'),
  rebuild: () => load<typeof ProjectionRebuildModule>('projections/projection-rebuild.js'),
  decider: () => load<typeof DeciderModule>('domain/service.decider.js'),
  evolve: () => load<typeof EvolveModule>('domain/service.evolve.js'),
  serviceBody: () => load<typeof ServiceBodyModule>('kube-api/service-body.js'),
  clusterIPRange: () => load<typeof ClusterIPRangeModule>('domain/allocation/cluster-ip-range.js'),
  nodePortRange: () => load<typeof NodePortRangeModule>('domain/allocation/node-port-range.js'),
  dataDir: () => load<typeof DataDirModule>('tls/data-dir.js'),
  /** The protobuf codec the server speaks (the floor and the bench client use it as is). */
  protobufObject: () => load<typeof KubeObjectProtobufModule>('domain/codec/protobuf/kube-object-protobuf.js'),
  protobufEnvelope: () => load<typeof KubeEnvelopeModule>('domain/codec/protobuf/kube-envelope.js'),
  conditionSummary: () => load<typeof ConditionSummaryModule>('domain/condition-summary.js'),
  /** Pure helpers floor-full uses to write exactly the rows svctrail writes (bench/README.md). */
  statusDiff: () => load<typeof StatusDiffModule>('domain/status-diff.js'),
  conditionAudit: () => load<typeof ConditionAuditModule>('projections/condition-audit.projection.js'),
  ingressAddresses: () => load<typeof IngressAddressesModule>('projections/ingress-addresses.js'),
  fieldManager: () => load<typeof FieldManagerModule>('domain/field-management/field-manager.js'),
  jsonPatchDiff: () => load<typeof JsonPatchDiffModule>('domain/json-patch-diff.js'),
  /** The stored-text codec (the dictionary trainer reads the generated revisions with it). */
  storedTextCodec: () => load<typeof StoredTextCodecModule>('store/stored-text-codec.js'),
  packedEventData: () => load<typeof PackedEventDataModule>('store/packed-event-data.js'),
  /** The codec's preset dictionary: data the floor's own few lines of decoding need too. */
  storedTextDictionary: () => load<typeof StoredTextDictionaryModule>('store/stored-text-dictionary.js'),
  eventDataDictionary: () => load<typeof EventDataDictionaryModule>('store/event-data-dictionary.js'),
};

export type { DatabaseHandle } from '../src/store/database';
export type { Service } from '../src/domain/service.types';
export type { ServiceCommand } from '../src/domain/service.commands';
export type { CommittedWrite } from '../src/store/ports/committed-write';
