// Wires configuration, the store and the Kubernetes API surface.
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HistoryModule } from './history/history.module';
import { KubeApiModule } from './kube-api/kube-api.module';
import { LoggingModule } from './observability/logging.module';
import { MirrorModule } from './mirror/mirror.module';
import { RecordedMirrorModule } from './mirror/recorded-mirror.module';
import { ObservabilityModule } from './observability/observability.module';
import { RetentionModule } from './retention/retention.module';
import type { Clock } from './shared/clock';
import type { IdFactory } from './shared/ids';
import { StoreModule } from './store/store.module';

@Module({})
export class AppModule {
  static register(config: AppConfig, clock: Clock, ids: IdFactory): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(config, clock, ids),
        LoggingModule.register(config),
        ObservabilityModule,
        StoreModule.register(config),
        MirrorModule.register(config),
        RecordedMirrorModule.register(config),
        KubeApiModule,
        HistoryModule,
        RetentionModule.register(config),
      ],
    };
  }
}
