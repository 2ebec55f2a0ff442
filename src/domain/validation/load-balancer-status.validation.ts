// ValidateLoadBalancerStatus (kubernetes pkg/apis/core/validation/validation.go, v1.32:
// LoadBalancerIPMode GA and on, AllowServiceLBStatusOnNonLB locked off).
import { type FieldError, fieldErrors } from '../errors/field-error';
import { parseIP } from '../net/ip';
import { type LoadBalancerStatus, type ServiceSpec } from '../service.types';
import { validateIP } from './ip.validation';
import { isDNS1123Subdomain } from './name-validation';

const SUPPORTED_IP_MODES = ['Proxy', 'VIP'];

/**
 * Validates `status.loadBalancer` against a spec (the stored one for status writes). Ingress
 * `ports` and the Service `conditions` are not validated upstream.
 */
export function validateLoadBalancerStatus(status: LoadBalancerStatus | undefined, spec: ServiceSpec, path = 'status.loadBalancer'): FieldError[] {
  const errs: FieldError[] = [];
  const ingressPath = `${path}.ingress`;
  const ingress = status?.ingress ?? [];
  if (spec.type !== 'LoadBalancer' && ingress.length !== 0) {
    return [fieldErrors.forbidden(ingressPath, "may only be used when `spec.type` is 'LoadBalancer'")];
  }
  ingress.forEach((entry, i) => {
    const idxPath = `${ingressPath}[${i}]`;
    const ip = entry.ip ?? '';
    if (ip.length > 0) errs.push(...validateIP(`${idxPath}.ip`, ip));

    if (entry.ipMode === undefined) {
      if (ip.length > 0) errs.push(fieldErrors.required(`${idxPath}.ipMode`, 'must be specified when `ip` is set'));
    } else if (ip.length === 0) {
      errs.push(fieldErrors.forbidden(`${idxPath}.ipMode`, 'may not be specified when `ip` is not set'));
    } else if (!SUPPORTED_IP_MODES.includes(entry.ipMode)) {
      errs.push(fieldErrors.notSupported(`${idxPath}.ipMode`, entry.ipMode, SUPPORTED_IP_MODES));
    }

    const hostname = entry.hostname ?? '';
    if (hostname.length > 0) {
      for (const msg of isDNS1123Subdomain(hostname)) errs.push(fieldErrors.invalid(`${idxPath}.hostname`, hostname, msg));
      if (parseIP(hostname)) {
        errs.push(fieldErrors.invalid(`${idxPath}.hostname`, hostname, 'must be a DNS name, not an IP address'));
      }
    }
  });
  return errs;
}
