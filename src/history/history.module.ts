// The history API (history.svctrail.io/v1alpha1): read-only queries over the log and its
// projections. The store's repositories for it are provided here, over the shared database.
import { Module } from '@nestjs/common';
import { ActivitySummaryRepository } from '../store/activity-summary-repository';
import { ChangeHistoryRepository } from '../store/change-history-repository';
import { ConditionHistoryRepository } from '../store/condition-history-repository';
import type { DatabaseHandle } from '../store/database';
import { IngressHistoryRepository } from '../store/ingress-history-repository';
import { DATABASE } from '../store/store.tokens';
import { ActivitySummaryService } from './activity-summary.service';
import { ChangeFeedService } from './change-feed.service';
import { ChangeLogService } from './change-log.service';
import { ConditionAuditService } from './condition-audit.service';
import { FieldOwnershipService } from './field-ownership.service';
import { HistoryController } from './history.controller';
import { IngressHistoryService } from './ingress-history.service';

@Module({
  controllers: [HistoryController],
  providers: [
    { provide: ChangeHistoryRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ChangeHistoryRepository(h) },
    { provide: ConditionHistoryRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ConditionHistoryRepository(h) },
    { provide: IngressHistoryRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new IngressHistoryRepository(h) },
    { provide: ActivitySummaryRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ActivitySummaryRepository(h) },
    ActivitySummaryService,
    ChangeLogService,
    ConditionAuditService,
    IngressHistoryService,
    ChangeFeedService,
    FieldOwnershipService,
  ],
})
export class HistoryModule {}
