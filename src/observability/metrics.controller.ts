// GET /metrics in the Prometheus text format (authenticated like every non-public path).
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MetricsService } from './metrics.service';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    reply
      .code(200)
      .header('content-type', this.metrics.registry.contentType)
      .send(await this.metrics.registry.metrics());
  }
}
