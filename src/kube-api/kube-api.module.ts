// The Kubernetes-compatible REST surface and the CQRS handlers behind it.
import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { OpenApiModule } from '../openapi/openapi.module';
import { CommandHandlers } from '../commands';
import { KubernetesServiceBootstrap } from '../commands/kubernetes-service.bootstrap';
import { ServiceWriteRunner } from '../commands/service-write-runner';
import { QueryHandlers } from '../queries';
import { ServiceWatchService } from '../watch/service-watch.service';
import { WatchRegistry } from '../watch/watch-registry';
import { KubeEventsService } from '../kube-events/kube-events.service';
import { KubeEventCommandHandlers } from '../kube-events/commands';
import { KubeEventWriteRunner } from '../kube-events/commands/kube-event-write-runner';
import { KubeEventExpiryService } from '../kube-events/kube-event-expiry.service';
import { DiscoveryController } from './discovery.controller';
import { EventEndpoints } from './event-endpoints';
import { EventsController } from './events.controller';
import { EventsV1Controller } from './events-v1.controller';
import { HealthController } from './health.controller';
import { ReviewController } from './review.controller';
import { ServiceStatusController } from './service-status.controller';
import { ServiceEndpoints } from './service-endpoints';
import { ServicesController } from './services.controller';

@Module({
  // HistoryModule is imported by AppModule.
  imports: [CqrsModule.forRoot(), OpenApiModule],
  controllers: [DiscoveryController, HealthController, ServicesController, ServiceStatusController, EventsController, EventsV1Controller, ReviewController],
  providers: [
    ServiceEndpoints,
    EventEndpoints,
    ServiceWriteRunner,
    KubernetesServiceBootstrap,
    ServiceWatchService,
    WatchRegistry,
    KubeEventsService,
    KubeEventWriteRunner,
    KubeEventExpiryService,
    ...KubeEventCommandHandlers,
    ...CommandHandlers,
    ...QueryHandlers,
  ],
  exports: [ServiceWatchService, WatchRegistry],
})
export class KubeApiModule {}
