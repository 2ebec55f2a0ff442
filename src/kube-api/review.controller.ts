// The reviews: create-only, never stored. The self reviews behind `kubectl auth can-i` and
// `kubectl auth whoami`, and the TokenReview and (Local)SubjectAccessReview a delegating server
// (k8s.io/apiserver's webhook authenticator and authorizer) and `kubectl auth can-i --as` ask.
// Each is answered by the very authenticator or authorizer that admitted the request. Bodies in
// JSON, YAML or protobuf (kubectl 1.32+ and protobuf clients send protobuf), answers in whatever
// the client accepts first, 201 Created as kube-apiserver's create handler.
import { Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerSelfSubjectReview } from '../auth/self-subject-review';
import { answerTokenReview } from '../auth/token-review';
import { answerLocalSubjectAccessReview } from '../authz/local-subject-access-review';
import { answerSelfSubjectAccessReview } from '../authz/self-subject-access-review';
import { answerSelfSubjectRulesReview } from '../authz/self-subject-rules-review';
import { answerSubjectAccessReview } from '../authz/subject-access-review';
import { decodeReviewBody, ReviewTarget } from '../domain/codec/review-decoder';
import {
  localSubjectAccessReviewSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectReviewSchema,
  selfSubjectRulesReviewSchema,
  subjectAccessReviewSchema,
  tokenReviewSchema,
} from '../domain/codec/review-schema';
import { encodeStruct } from '../domain/codec/schema-encoder';
import type { ProtobufKind } from '../domain/codec/protobuf/kube-object-protobuf';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { sendKubeObject } from './kube-response';
import { accessControlOf } from './request-access-control';
import { identityOf } from './request-identity';
import { parseWriteOptions } from './write-options';

const AUTHORIZATION = 'authorization.k8s.io';
const AUTHENTICATION = 'authentication.k8s.io';
const ACCESS: ReviewTarget = { group: AUTHORIZATION, version: 'v1', kind: 'SelfSubjectAccessReview', schema: selfSubjectAccessReviewSchema };
const RULES: ReviewTarget = { group: AUTHORIZATION, version: 'v1', kind: 'SelfSubjectRulesReview', schema: selfSubjectRulesReviewSchema };
const SUBJECT_ACCESS: ReviewTarget = { group: AUTHORIZATION, version: 'v1', kind: 'SubjectAccessReview', schema: subjectAccessReviewSchema };
const LOCAL_SUBJECT_ACCESS: ReviewTarget = { group: AUTHORIZATION, version: 'v1', kind: 'LocalSubjectAccessReview', schema: localSubjectAccessReviewSchema };
const TOKEN: ReviewTarget = { group: AUTHENTICATION, version: 'v1', kind: 'TokenReview', schema: tokenReviewSchema };
const whoami = (version: 'v1' | 'v1beta1'): ReviewTarget => ({ group: AUTHENTICATION, version, kind: 'SelfSubjectReview', schema: selfSubjectReviewSchema });

type Plain = Record<string, unknown>;

@Controller('apis')
export class ReviewController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Post('authorization.k8s.io/v1/selfsubjectaccessreviews')
  async access(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, ACCESS, (review) => answerSelfSubjectAccessReview(accessControlOf(request).authorizer, identityOf(request).user, review));
  }

  @Post('authorization.k8s.io/v1/selfsubjectrulesreviews')
  async rules(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, RULES, (review) => answerSelfSubjectRulesReview(accessControlOf(request).authorizer, identityOf(request).user, review));
  }

  @Post('authorization.k8s.io/v1/subjectaccessreviews')
  async subjectAccess(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, SUBJECT_ACCESS, (review) => answerSubjectAccessReview(accessControlOf(request).authorizer, review));
  }

  @Post('authorization.k8s.io/v1/namespaces/:namespace/localsubjectaccessreviews')
  async localSubjectAccess(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('namespace') namespace: string): Promise<void> {
    await this.review(request, reply, LOCAL_SUBJECT_ACCESS, (review) => answerLocalSubjectAccessReview(accessControlOf(request).authorizer, review, namespace));
  }

  @Post('authentication.k8s.io/v1/tokenreviews')
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, TOKEN, (review) => answerTokenReview(accessControlOf(request).authenticator, review));
  }

  @Post('authentication.k8s.io/v1/selfsubjectreviews')
  async whoami(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, whoami('v1'), () => answerSelfSubjectReview(identityOf(request).user, 'authentication.k8s.io/v1', this.clock.now()));
  }

  /** kubectl 1.27 knows only the beta (GA came in 1.28); kube-apiserver 1.27–1.32 serve it too. */
  @Post('authentication.k8s.io/v1beta1/selfsubjectreviews')
  async whoamiBeta(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.review(request, reply, whoami('v1beta1'), () => answerSelfSubjectReview(identityOf(request).user, 'authentication.k8s.io/v1beta1', this.clock.now()));
  }

  private async review(request: FastifyRequest, reply: FastifyReply, target: ReviewTarget, answer: (review: Plain) => Plain | Promise<Plain>): Promise<void> {
    const options = parseWriteOptions(request, 'CreateOptions');
    const { object, warnings } = decodeReviewBody(request.body, target, options.fieldValidation);
    const answered = await answer(object);
    sendKubeObject(request, reply, 201, target.kind as ProtobufKind, encodeStruct(target.schema, answered), warnings);
  }
}
