// ValidateServiceClusterIPsRelatedFields and the update-time upgrade/downgrade checks of
// kubernetes pkg/apis/core/validation/validation.go (v1.32: single-argument form).
import { type FieldError, fieldErrors } from '../errors/field-error';
import { isIPv6 } from '../net/ip';
import { type Service } from '../service.types';
import { goOptionalString, goStringSlice } from './bad-values';
import { validateIP } from './ip.validation';

const SUPPORTED_IP_FAMILIES = ['IPv4', 'IPv6'];
const SUPPORTED_IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

/** validation.isHeadlessService: exactly `clusterIPs: ["None"]`. */
export function isHeadlessService(svc: Service): boolean {
  const ips = svc.spec.clusterIPs;
  return ips !== undefined && ips.length === 1 && ips[0] === 'None';
}

/**
 * ValidateServiceClusterIPsRelatedFields: clusterIP/clusterIPs consistency, ipFamilies,
 * ipFamilyPolicy and the dual-stack shape of clusterIPs. ExternalName is skipped (its own rules
 * in ValidateService forbid these fields). Run by BeginCreate/BeginUpdate before allocation and
 * again inside ValidateService.
 */
export function validateServiceClusterIPsRelatedFields(svc: Service): FieldError[] {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return [];

  const errs: FieldError[] = [];
  let hasInvalidIPs = false;
  const clusterIPsField = 'spec.clusterIPs';
  const clusterIPs = spec.clusterIPs ?? [];
  const clusterIPsValue = goStringSlice(spec.clusterIPs);

  // clusterIP and clusterIPs must agree (the strategy syncs them for the user).
  if (spec.clusterIP) {
    if (clusterIPs.length === 0) {
      errs.push(fieldErrors.required(clusterIPsField));
    } else if (clusterIPs[0] !== spec.clusterIP) {
      errs.push(fieldErrors.invalid(clusterIPsField, clusterIPsValue, 'first value must match `clusterIP`'));
    }
  } else if (clusterIPs.length !== 0) {
    errs.push(fieldErrors.invalid(clusterIPsField, clusterIPsValue, 'must be empty when `clusterIP` is not specified'));
  }

  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((family, i) => {
    const path = `spec.ipFamilies[${i}]`;
    if (!SUPPORTED_IP_FAMILIES.includes(family)) errs.push(fieldErrors.notSupported(path, family, SUPPORTED_IP_FAMILIES));
    if (seen.has(family)) errs.push(fieldErrors.duplicate(path, family));
    seen.add(family);
  });

  // nil is fine here: the policy is defaulted during allocation.
  if (spec.ipFamilyPolicy !== undefined && !SUPPORTED_IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(fieldErrors.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, SUPPORTED_IP_FAMILY_POLICIES));
  }

  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(fieldErrors.invalid(clusterIPsField, clusterIPsValue, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIP(`${clusterIPsField}[${i}]`, ip);
    if (ipErrs.length) hasInvalidIPs = true;
    errs.push(...ipErrs);
  });

  if (clusterIPs.length > 2) {
    errs.push(fieldErrors.invalid(clusterIPsField, clusterIPsValue, 'may only hold up to 2 values'));
  }

  // Invalid IPs would skew the family checks below, so upstream stops here.
  if (hasInvalidIPs) return errs;

  if (clusterIPs.length > 1) {
    // netutils.IsDualStackIPStrings: at least one of each family.
    const hasV6 = clusterIPs.some((ip) => isIPv6(ip));
    const hasV4 = clusterIPs.some((ip) => !isIPv6(ip));
    if (!(hasV4 && hasV6)) {
      errs.push(fieldErrors.invalid(clusterIPsField, clusterIPsValue, 'may specify no more than one IP for each IP family'));
    }
  }

  const families = spec.ipFamilies ?? [];
  if (!isHeadlessService(svc) && clusterIPs.length > 0 && families.length > 0) {
    for (let i = 0; i < clusterIPs.length && i < families.length; i++) {
      const ip = clusterIPs[i];
      if (families[i] === 'IPv4' && isIPv6(ip)) {
        errs.push(fieldErrors.invalid(`${clusterIPsField}[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      }
      if (families[i] === 'IPv6' && !isIPv6(ip)) {
        errs.push(fieldErrors.invalid(`${clusterIPsField}[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
      }
    }
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: primary may never change; releasing needs SingleStack. */
export function validateUpgradeDowngradeClusterIPs(oldSvc: Service, svc: Service): FieldError[] {
  if (svc.spec.type === 'ExternalName' || oldSvc.spec.type === 'ExternalName') return [];
  if (isHeadlessService(oldSvc) && isHeadlessService(svc)) return [];

  const errs: FieldError[] = [];
  const oldIPs = oldSvc.spec.clusterIPs ?? [];
  const newIPs = svc.spec.clusterIPs ?? [];
  const newValue = goStringSlice(svc.spec.clusterIPs);
  if (oldIPs.length === newIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== newIPs[i]) errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, newValue, 'may not change once set'));
    });
  } else if (oldIPs.length > newIPs.length) {
    if (newIPs.length === 0) {
      errs.push(fieldErrors.invalid('spec.clusterIPs[0]', newValue, 'primary clusterIP can not be unset'));
    }
    if (oldIPs.length > 0 && newIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
      errs.push(fieldErrors.invalid('spec.clusterIPs[0]', newValue, 'may not change once set'));
    }
    if (newIPs.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', goOptionalString(svc.spec.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
    errs.push(fieldErrors.invalid('spec.clusterIPs[0]', newValue, 'may not change once set'));
  }
  return errs;
}

/**
 * validateUpgradeDowngradeIPFamilies, quirks included: the path is always `ipFamilies[0]`, the
 * "primary ipFamily can not be unset" test looks at clusterIPs, and the shrink/grow "may not
 * change" errors carry the clusterIPs slice as BadValue.
 */
export function validateUpgradeDowngradeIPFamilies(oldSvc: Service, svc: Service): FieldError[] {
  if (svc.spec.type === 'ExternalName' || oldSvc.spec.type === 'ExternalName') return [];
  const oldHeadless = isHeadlessService(oldSvc);
  const newHeadless = isHeadlessService(svc);
  if (oldHeadless !== newHeadless || newHeadless) return [];

  const errs: FieldError[] = [];
  const oldFamilies = oldSvc.spec.ipFamilies ?? [];
  const newFamilies = svc.spec.ipFamilies ?? [];
  const familiesValue = goStringSlice(svc.spec.ipFamilies, '[]core.IPFamily');
  const clusterIPsValue = goStringSlice(svc.spec.clusterIPs);
  if (oldFamilies.length === newFamilies.length) {
    oldFamilies.forEach((family, i) => {
      if (family !== newFamilies[i]) errs.push(fieldErrors.invalid('spec.ipFamilies[0]', familiesValue, 'may not change once set'));
    });
  } else if (oldFamilies.length > newFamilies.length) {
    if ((svc.spec.clusterIPs ?? []).length === 0) {
      errs.push(fieldErrors.invalid('spec.ipFamilies[0]', familiesValue, 'primary ipFamily can not be unset'));
    }
    if (newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) {
      errs.push(fieldErrors.invalid('spec.ipFamilies[0]', clusterIPsValue, 'may not change once set'));
    }
    if (newFamilies.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', goOptionalString(svc.spec.ipFamilyPolicy), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFamilies.length > 0 && newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) {
    errs.push(fieldErrors.invalid('spec.ipFamilies[0]', clusterIPsValue, 'may not change once set'));
  }
  return errs;
}
