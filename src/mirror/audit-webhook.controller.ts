// POST /audit/v1/events: kube-apiserver's audit webhook backend (--audit-webhook-config-file)
// delivers audit.k8s.io/v1 EventLists here. It retries every error with backoff and drops events
// once its buffer is full, so a delivery is answered as soon as it is stored: 200 for what is kept
// or deliberately ignored, 400 only for a body that is no EventList. Authenticated and authorized
// like every path (a non-resource path: `issue-credentials --policy audit-webhook`).
import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuditBodyError } from '../domain/mirror/audited-write';
import { BadRequestError } from '../domain/errors/domain-errors';
import { sendObject } from '../kube-api/kube-response';
import { AUDIT_WEBHOOK_PATH } from '../authz/policy-presets';
import { AuditJoin } from './audit-join';

@Controller()
export class AuditWebhookController {
  constructor(private readonly join: AuditJoin) {}

  @Post(AUDIT_WEBHOOK_PATH.slice(1))
  @HttpCode(200)
  async events(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      await this.join.receive(request.body);
    } catch (error) {
      if (error instanceof AuditBodyError) throw new BadRequestError(error.message);
      throw error;
    }
    sendObject(request, reply, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
  }
}
