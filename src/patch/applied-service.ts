// Server-side apply of a core/v1 Service (applied-object.ts): the merged object is decoded and
// defaulted as a Service body is.
import { decodeServiceValue } from '../domain/codec/service-decoder';
import { SERVICE_MANAGED_KIND } from '../domain/field-management';
import { applyServiceDefaults } from '../domain/service-defaults';
import type { Service } from '../domain/service.types';
import { type AppliedKind, type AppliedObject, appliedObject, type ApplyPatch, type ApplyWrite } from './applied-object';

const APPLIED_SERVICE: AppliedKind<Service> = { fields: SERVICE_MANAGED_KIND, decode: decodeServiceValue, defaults: applyServiceDefaults };

export function appliedService(current: Service | null, patch: ApplyPatch, write: ApplyWrite): AppliedObject<Service> {
  return appliedObject(APPLIED_SERVICE, current, patch, write);
}
