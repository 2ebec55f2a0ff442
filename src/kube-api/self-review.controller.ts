// The self reviews behind `kubectl auth can-i` and `kubectl auth whoami`: create-only,
// cluster-scoped, never stored. Bodies in JSON, YAML or protobuf (kubectl 1.32+ sends protobuf),
// answers in whatever the client accepts first, 201 Created as kube-apiserver's create handler.
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerSelfSubjectReview } from '../auth/self-subject-review';
import { requestPolicy } from '../authz/request-policy';
import { answerSelfSubjectAccessReview } from '../authz/self-subject-access-review';
import { answerSelfSubjectRulesReview } from '../authz/self-subject-rules-review';
import { decodeReviewBody, ReviewTarget } from '../domain/codec/review-decoder';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema } from '../domain/codec/review-schema';
import { encodeStruct } from '../domain/codec/schema-encoder';
import type { ProtobufKind } from '../domain/codec/protobuf/kube-object-protobuf';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { sendKubeObject } from './kube-response';
import { identityOf } from './request-identity';
import { parseWriteOptions } from './write-options';

const ACCESS: ReviewTarget = { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview', schema: selfSubjectAccessReviewSchema };
const RULES: ReviewTarget = { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview', schema: selfSubjectRulesReviewSchema };
const whoami = (version: 'v1' | 'v1beta1'): ReviewTarget => ({ group: 'authentication.k8s.io', version, kind: 'SelfSubjectReview', schema: selfSubjectReviewSchema });

@Controller('apis')
export class SelfReviewController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Post('authorization.k8s.io/v1/selfsubjectaccessreviews')
  access(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.review(request, reply, ACCESS, (review) => answerSelfSubjectAccessReview(requestPolicy(request), identityOf(request).user, review));
  }

  @Post('authorization.k8s.io/v1/selfsubjectrulesreviews')
  rules(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.review(request, reply, RULES, (review) => answerSelfSubjectRulesReview(requestPolicy(request), identityOf(request).user, review));
  }

  @Post('authentication.k8s.io/v1/selfsubjectreviews')
  whoami(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.review(request, reply, whoami('v1'), () => answerSelfSubjectReview(identityOf(request).user, 'authentication.k8s.io/v1', this.clock.now()));
  }

  /** kubectl 1.27 knows only the beta (GA came in 1.28); kube-apiserver 1.27–1.32 serve it too. */
  @Post('authentication.k8s.io/v1beta1/selfsubjectreviews')
  whoamiBeta(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.review(request, reply, whoami('v1beta1'), () => answerSelfSubjectReview(identityOf(request).user, 'authentication.k8s.io/v1beta1', this.clock.now()));
  }

  private review(request: FastifyRequest, reply: FastifyReply, target: ReviewTarget, answer: (review: Record<string, unknown>) => Record<string, unknown>): void {
    const options = parseWriteOptions(request, 'CreateOptions');
    const { object, warnings } = decodeReviewBody(request.body, target, options.fieldValidation);
    const answered = answer(object);
    sendKubeObject(request, reply, 201, target.kind as ProtobufKind, encodeStruct(target.schema, answered), warnings);
  }
}
