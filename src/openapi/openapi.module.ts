// The OpenAPI documents kubectl needs before create/apply/replace/edit/diff and for explain.
import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}
