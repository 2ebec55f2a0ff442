// initIPFamilyFields of kubernetes pkg/registry/core/service/storage/alloc.go: defaults
// ipFamilyPolicy and ipFamilies from the cluster configuration and rejects families the
// cluster does not serve. Mutates `svc`; throws InvalidError with only these errors.
import { InvalidError } from '../errors/domain-errors';
import { type FieldError, fieldErrors } from '../errors/field-error';
import { isIPv4, isIPv6 } from '../net/ip';
import { type Service } from '../service.types';
import { goStringSlice } from '../validation/bad-values';
import { validateServiceClusterIPsRelatedFields } from '../validation/cluster-ips.validation';
import { type ClusterIPRange, configuredRanges, type IPFamilyName } from './cluster-ip-range';

function otherFamily(family: string): IPFamilyName {
  return family === 'IPv4' ? 'IPv6' : 'IPv4';
}

/** alloc.go familyOf */
export function familyOfIP(ip: string): string {
  if (isIPv4(ip)) return 'IPv4';
  if (isIPv6(ip)) return 'IPv6';
  return 'unknown';
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** sameClusterIPs */
export function sameClusterIPs(a: Service, b: Service): boolean {
  return sameList(a.spec.clusterIPs, b.spec.clusterIPs);
}

/** sameIPFamilies */
export function sameIPFamilies(a: Service, b: Service): boolean {
  return sameList(a.spec.ipFamilies, b.spec.ipFamilies);
}

/**
 * isMatchingPreferDualStackClusterIPFields: a PreferDualStack service whose type, clusterIPs
 * and ipFamilies did not change is never upgraded or downgraded behind its back.
 */
export function isMatchingPreferDualStackClusterIPFields(svc: Service, oldSvc: Service | undefined): boolean {
  if (!oldSvc) return false;
  if (svc.spec.ipFamilyPolicy === undefined) return false;
  if (oldSvc.spec.type !== svc.spec.type) return false;
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(svc.spec.type ?? '')) return false;
  if (svc.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (oldSvc.spec.ipFamilyPolicy !== undefined && oldSvc.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameClusterIPs(oldSvc, svc) && sameIPFamilies(oldSvc, svc);
}

function policyError(svc: Service, detail: string): FieldError {
  return fieldErrors.invalid('spec.ipFamilyPolicy', svc.spec.ipFamilyPolicy ?? '', detail);
}

export function initIPFamilyFields(svc: Service, oldSvc: Service | undefined, range: ClusterIPRange): void {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return;
  if (isMatchingPreferDualStackClusterIPFields(svc, oldSvc)) return;

  const configured = new Set(configuredRanges(range).map((r) => r.familyName));
  const primary = range.primary.familyName;
  const name = svc.metadata.name ?? '';

  // No static default: a create is SingleStack, an update keeps the old policy, and a
  // headless selectorless service asks for both families.
  if (spec.ipFamilyPolicy === undefined) {
    if (oldSvc && oldSvc.spec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = oldSvc.spec.ipFamilyPolicy;
    else if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }

  const early = validateServiceClusterIPsRelatedFields(svc);
  if (early.length) throw new InvalidError('Service', name, early);

  const errs: FieldError[] = [];

  if (oldSvc) {
    if (spec.ipFamilyPolicy === 'SingleStack') {
      // Setting SingleStack with untouched dual-stack fields is the intent to downgrade.
      if (sameClusterIPs(oldSvc, svc) && (spec.clusterIPs ?? []).length > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      if (sameIPFamilies(oldSvc, svc) && (spec.ipFamilies ?? []).length > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    } else {
      const newIPs = spec.clusterIPs ?? [];
      if (newIPs.length > 0 && newIPs.length < (oldSvc.spec.clusterIPs ?? []).length) {
        errs.push(policyError(svc, "must be 'SingleStack' to release the secondary cluster IP"));
      }
      const newFamilies = spec.ipFamilies ?? [];
      if (newFamilies.length > 0 && newFamilies.length < (oldSvc.spec.ipFamilies ?? []).length) {
        errs.push(policyError(svc, "must be 'SingleStack' to release the secondary IP family"));
      }
    }
  }

  if (spec.ipFamilyPolicy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2) {
      errs.push(policyError(svc, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if ((spec.ipFamilies ?? []).length === 2) {
      errs.push(policyError(svc, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }

  // Infer ipFamilies from clusterIPs; the error names the user's IP rather than a family.
  const clusterIPs = spec.clusterIPs ?? [];
  for (let i = 0; i < clusterIPs.length; i++) {
    const ip = clusterIPs[i];
    if (ip === 'None') break;
    const family = familyOfIP(ip);
    if (i >= (spec.ipFamilies ?? []).length) {
      if (!configured.has(family as IPFamilyName)) {
        errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, goStringSlice(spec.clusterIPs), `${family} is not configured on this cluster`));
      } else {
        spec.ipFamilies = [...(spec.ipFamilies ?? []), family];
      }
    }
  }

  if (errs.length) throw new InvalidError('Service', name, errs);

  // Headless + selectorless: allowed to carry both families even on a single-stack cluster.
  if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) {
    if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [primary];
    if (spec.ipFamilies!.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') {
      spec.ipFamilies = [...spec.ipFamilies!, otherFamily(spec.ipFamilies![0])];
    }
    return;
  }

  if (spec.ipFamilyPolicy === 'RequireDualStack' && configured.size < 2) {
    errs.push(policyError(svc, 'this cluster is not configured for dual-stack services'));
  }
  (spec.ipFamilies ?? []).forEach((family, i) => {
    if (!configured.has(family as IPFamilyName)) {
      errs.push(fieldErrors.invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
    }
  });
  if (errs.length) throw new InvalidError('Service', name, errs);

  if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [primary];
  if (spec.ipFamilyPolicy !== 'SingleStack' && spec.ipFamilies!.length === 1 && configured.size === 2) {
    spec.ipFamilies = [...spec.ipFamilies!, otherFamily(spec.ipFamilies![0])];
  }
}
