// A store that recorded a cluster, served without --mirror (an imported or point-in-time copy of a
// mirror's store): the history still says where each write came from and who made it. The ports
// mirror mode gives (MirrorModule) are given here when the store holds a mirror source, as the CLI
// gives them (cli/read-only-store.ts); a store that never mirrored gets none, and answers as before.
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AUDIT_ACTOR_STORE } from '../store/ports/audit-actor-store';
import type { AuditActorStore } from '../store/ports/audit-actor-store';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS, MIRROR_SOURCE_STORE } from '../store/ports/mirror-source-store';
import type { MirrorSourceStore } from '../store/ports/mirror-source-store';

@Global()
@Module({})
export class RecordedMirrorModule {
  static register(config: AppConfig): DynamicModule {
    if (config.mirror) return { module: RecordedMirrorModule };
    return {
      module: RecordedMirrorModule,
      providers: [
        {
          provide: MIRROR_OBSERVATIONS,
          inject: [MIRROR_SOURCE_STORE],
          // undefined: the history's optional port is absent, as without mirror mode.
          useFactory: async (sources: MirrorSourceStore) => ((await sources.load()) ? sources : undefined),
        },
        {
          provide: MIRROR_ACTORS,
          inject: [MIRROR_OBSERVATIONS, AUDIT_ACTOR_STORE],
          useFactory: (observations: unknown, actors: Pick<AuditActorStore, 'actors'>) => (observations ? actors : undefined),
        },
      ],
      exports: [MIRROR_OBSERVATIONS, MIRROR_ACTORS],
    };
  }
}
