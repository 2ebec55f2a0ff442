// Metrics for the whole app: the service, its /metrics endpoint, and the feed listener that
// counts the events this process appended after each commit (PostgreSQL replicas each count
// their own, so the sum over replicas is the cluster's).
import { Global, Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { ChangeFeed, FeedSubscription } from '../feed/change-feed';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Injectable()
class AppendedEventsCounter implements OnModuleDestroy {
  private readonly subscription: FeedSubscription;
  constructor(feed: ChangeFeed, metrics: MetricsService) {
    this.subscription = feed.subscribeOwnCommits((write) => {
      for (const recorded of write.events) metrics.eventsAppended.inc({ type: recorded.event.type });
    });
  }
  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }
}

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, AppendedEventsCounter],
  exports: [MetricsService],
})
export class ObservabilityModule {}
