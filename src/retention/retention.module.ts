// Retention is off unless `--history-retention` is given: then the server compacts by itself.
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { HistoryRetentionService, RETENTION_MS } from './history-retention.service';
import { retentionMs } from './retention-duration';

@Module({})
export class RetentionModule {
  static register(config: AppConfig): DynamicModule {
    const ms = config.historyRetention ? retentionMs(config.historyRetention) : undefined;
    if (ms === undefined) return { module: RetentionModule };
    return { module: RetentionModule, providers: [{ provide: RETENTION_MS, useValue: ms }, HistoryRetentionService] };
  }
}
