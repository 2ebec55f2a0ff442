// Status-subresource validation: rest.BeforeUpdate's generic metadata pass, then the status
// strategy's ValidateServiceStatusUpdate (core ObjectMetaUpdate + ValidateLoadBalancerStatus).
// A metadata error therefore appears three times in the causes (twice generic, once core).
import { type FieldError } from '../errors/field-error';
import { type Service } from '../service.types';
import { validateLoadBalancerStatus } from './load-balancer-status.validation';
import { validatePathSegmentName } from './name-validation';
import { validateGenericObjectMeta, validateGenericObjectMetaUpdate, validateObjectMetaUpdate } from './object-meta.validation';

/**
 * `newSvc` is the object after the status strategy's PrepareForUpdate; the load-balancer status
 * is checked against the stored spec (upstream passes the new object's spec, which that
 * PrepareForUpdate has reset to the old one — we read oldSvc.spec directly). Conditions are not
 * validated.
 */
export function validateServiceStatusUpdate(newSvc: Service, oldSvc: Service): FieldError[] {
  return [
    ...validateGenericObjectMeta(newSvc.metadata, { nameFn: validatePathSegmentName, namespaced: true }),
    ...validateGenericObjectMetaUpdate(newSvc.metadata, oldSvc.metadata),
    ...validateObjectMetaUpdate(newSvc.metadata, oldSvc.metadata),
    ...validateLoadBalancerStatus(newSvc.status?.loadBalancer, oldSvc.spec),
  ];
}
