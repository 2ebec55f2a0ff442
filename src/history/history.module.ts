// The history API (history.svctrail.io/v1alpha1): read-only queries over the log and its
// projections. The store provides the engine's repositories together (HISTORY_STORES); each is
// provided here under the token of its interface.
import { Module } from '@nestjs/common';
import { ACTIVITY_SUMMARY } from '../store/ports/activity-summary';
import { CHANGE_HISTORY } from '../store/ports/change-history';
import { CONDITION_HISTORY } from '../store/ports/condition-history';
import { HISTORY_READ_STORE, HISTORY_STORES } from '../store/ports/history-stores';
import type { HistoryStores } from '../store/ports/history-stores';
import { INGRESS_HISTORY } from '../store/ports/ingress-history';
import { KUBE_EVENT_HISTORY } from '../store/ports/kube-event-history';
import { ActivitySummaryService } from './activity-summary.service';
import { HistoryFeedService } from './history-feed.service';
import { ChangeLogService } from './change-log.service';
import { CompactionsService } from './compactions.service';
import { ConditionAuditService } from './condition-audit.service';
import { EventHistoryService } from './event-history.service';
import { FieldOwnershipService } from './field-ownership.service';
import { HistoryController } from './history.controller';
import { IngressHistoryService } from './ingress-history.service';

@Module({
  controllers: [HistoryController],
  providers: [
    { provide: HISTORY_READ_STORE, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.reads },
    { provide: CHANGE_HISTORY, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.changes },
    { provide: CONDITION_HISTORY, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.conditions },
    { provide: INGRESS_HISTORY, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.ingress },
    { provide: ACTIVITY_SUMMARY, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.activity },
    { provide: KUBE_EVENT_HISTORY, inject: [HISTORY_STORES], useFactory: (s: HistoryStores) => s.events },
    ActivitySummaryService,
    ChangeLogService,
    CompactionsService,
    ConditionAuditService,
    EventHistoryService,
    IngressHistoryService,
    HistoryFeedService,
    FieldOwnershipService,
  ],
})
export class HistoryModule {}
