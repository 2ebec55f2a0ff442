// ValidateService / ValidateServiceCreate / ValidateServiceUpdate of kubernetes
// pkg/apis/core/validation/validation.go (v1.32), plus the generic registry's metadata pass
// (apiserver pkg/registry/rest create.go BeforeCreate, update.go validateCommonFields) so that
// the returned list is exactly the `details.causes` kube-apiserver returns.
import { type FieldError, fieldErrors } from '../errors/field-error';
import { externallyAccessible, needsHealthCheck } from '../service-exposure';
import { type Service } from '../service.types';
import { goOptionalString, goServicePortKey } from './bad-values';
import { isHeadlessService, validateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies } from './cluster-ips.validation';
import { validateCIDR, validateIP, validateNonSpecialIP } from './ip.validation';
import { validateDNS1123Subdomain, validateLabels, validateQualifiedName } from './labels.validation';
import { isValidPortNum, validatePathSegmentName } from './name-validation';
import { validateGenericObjectMeta, validateGenericObjectMetaUpdate, validateObjectMetaCreate, validateObjectMetaUpdate } from './object-meta.validation';
import { validateServicePort } from './service-port.validation';

const SUPPORTED_SESSION_AFFINITY = ['ClientIP', 'None'];
const SUPPORTED_SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SUPPORTED_TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/** validateClientIPAffinityConfig + validateAffinityTimeout */
function validateClientIPAffinityConfig(svc: Service): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const detail = 'when session affinity type is ClientIP';
  const config = svc.spec.sessionAffinityConfig;
  if (!config) return [fieldErrors.required(path, detail)];
  if (!config.clientIP) return [fieldErrors.required(`${path}.clientIP`, detail)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined) return [fieldErrors.required(`${path}.clientIP.timeoutSeconds`, detail)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [fieldErrors.invalid(`${path}.clientIP.timeoutSeconds`, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** validateLoadBalancerClassField: immutable between LB objects; qualified name; LB only. */
function validateLoadBalancerClassField(oldSvc: Service | undefined, svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const cls = svc.spec.loadBalancerClass;
  if (oldSvc && oldSvc.spec.type === 'LoadBalancer' && svc.spec.type === 'LoadBalancer') {
    if (oldSvc.spec.loadBalancerClass !== cls) {
      errs.push(fieldErrors.invalid('spec.loadBalancerClass', goOptionalString(cls), 'may not change once set'));
    }
  }
  if (svc.spec.type === 'LoadBalancer') {
    if (cls !== undefined) errs.push(...validateQualifiedName('spec.loadBalancerClass', cls));
  } else if (cls !== undefined) {
    errs.push(fieldErrors.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** validateServiceExternalTrafficPolicy (includes healthCheckNodePort). */
function validateServiceExternalTrafficPolicy(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const policy = svc.spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(svc.spec)) {
    if (policy !== '') {
      errs.push(fieldErrors.invalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'));
    }
  } else if (policy === '') {
    errs.push(fieldErrors.required('spec.externalTrafficPolicy'));
  } else if (!SUPPORTED_TRAFFIC_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported('spec.externalTrafficPolicy', policy, SUPPORTED_TRAFFIC_POLICIES));
  }

  const hcnp = svc.spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(svc.spec)) {
    if (hcnp !== 0) {
      errs.push(fieldErrors.invalid('spec.healthCheckNodePort', hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    }
  } else if (hcnp === 0) {
    errs.push(fieldErrors.required('spec.healthCheckNodePort'));
  } else {
    errs.push(...isValidPortNum(hcnp).map((msg) => fieldErrors.invalid('spec.healthCheckNodePort', hcnp, msg)));
  }
  return errs;
}

/** validateServiceInternalTrafficFieldsValue (ExternalName may carry any valid value). */
function validateServiceInternalTrafficFieldsValue(svc: Service): FieldError[] {
  const policy = svc.spec.internalTrafficPolicy;
  const type = svc.spec.type;
  const errs: FieldError[] = [];
  if (policy === undefined && (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP')) {
    errs.push(fieldErrors.required('spec.internalTrafficPolicy'));
  }
  if (policy !== undefined && !SUPPORTED_TRAFFIC_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported('spec.internalTrafficPolicy', policy, SUPPORTED_TRAFFIC_POLICIES));
  }
  return errs;
}

/** validateServiceTrafficDistribution: only PreferClose exists in 1.32. */
function validateServiceTrafficDistribution(svc: Service): FieldError[] {
  const value = svc.spec.trafficDistribution;
  if (value === undefined || value === 'PreferClose') return [];
  return [fieldErrors.notSupported('spec.trafficDistribution', value, ['PreferClose'])];
}

/** ValidateService: the 19 rules of object-semantics §2.3, in upstream order. */
export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec;
  const annotations = svc.metadata.annotations ?? {};
  const errs = validateObjectMetaCreate(svc.metadata);

  if (TOPOLOGY_MODE in annotations && TOPOLOGY_AWARE_HINTS in annotations) {
    const mode = annotations[TOPOLOGY_MODE];
    if (mode !== annotations[TOPOLOGY_AWARE_HINTS]) {
      errs.push(fieldErrors.invalid(`metadata.annotations[${TOPOLOGY_MODE}]`, mode, `must match annotations[${TOPOLOGY_AWARE_HINTS}] when both are specified`));
    }
  }

  const ports = spec.ports ?? [];
  const headless = isHeadlessService(svc);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldErrors.required('spec.ports'));

  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless) {
        errs.push(fieldErrors.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
      }
      break;
    case 'ExternalName': {
      if ((spec.clusterIPs ?? []).length > 0) {
        errs.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      }
      if ((spec.ipFamilies ?? []).length > 0) {
        errs.push(fieldErrors.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      }
      if (spec.ipFamilyPolicy !== undefined) {
        errs.push(fieldErrors.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      }
      // A CNAME may carry one trailing dot to mark it fully qualified.
      const externalName = spec.externalName ?? '';
      const cname = externalName.endsWith('.') ? externalName.slice(0, -1) : externalName;
      if (cname.length > 0) errs.push(...validateDNS1123Subdomain('spec.externalName', cname));
      else errs.push(fieldErrors.required('spec.externalName'));
      break;
    }
  }

  const allPortNames = new Set<string>();
  ports.forEach((port, i) => errs.push(...validateServicePort(port, ports.length > 1, allPortNames, `spec.ports[${i}]`)));

  if (spec.selector !== undefined) errs.push(...validateLabels('spec.selector', spec.selector));

  const affinity = spec.sessionAffinity ?? '';
  if (affinity.length === 0) errs.push(fieldErrors.required('spec.sessionAffinity'));
  else if (!SUPPORTED_SESSION_AFFINITY.includes(affinity)) {
    errs.push(fieldErrors.notSupported('spec.sessionAffinity', affinity, SUPPORTED_SESSION_AFFINITY));
  }
  if (affinity === 'ClientIP') {
    errs.push(...validateClientIPAffinityConfig(svc));
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined) {
    errs.push(fieldErrors.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }

  errs.push(...validateServiceClusterIPsRelatedFields(svc));

  (spec.externalIPs ?? []).forEach((ip, i) => {
    const path = `spec.externalIPs[${i}]`;
    const ipErrs = validateIP(path, ip);
    errs.push(...(ipErrs.length ? ipErrs : validateNonSpecialIP(path, ip)));
  });

  const type = spec.type ?? '';
  if (type.length === 0) errs.push(fieldErrors.required('spec.type'));
  else if (!SUPPORTED_SERVICE_TYPES.includes(type)) errs.push(fieldErrors.notSupported('spec.type', type, SUPPORTED_SERVICE_TYPES));

  if (type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if ((port.nodePort ?? 0) !== 0) {
        errs.push(fieldErrors.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
      }
    });
  }

  // Duplicate node ports, keyed by (protocol, nodePort).
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = port.nodePort ?? 0;
    if (nodePort === 0) return;
    const key = `${port.protocol ?? ''}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldErrors.duplicate(`spec.ports[${i}].nodePort`, nodePort));
    nodePorts.add(key);
  });

  // Duplicate ports, keyed by (protocol, port); the BadValue is that key as a core.ServicePort.
  const portKeys = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${port.protocol ?? ''}/${port.port ?? 0}`;
    if (portKeys.has(key)) errs.push(fieldErrors.duplicate(`spec.ports[${i}]`, goServicePortKey(port.protocol ?? '', port.port ?? 0)));
    portKeys.add(key);
  });

  const sourceRanges = spec.loadBalancerSourceRanges ?? [];
  if (sourceRanges.length > 0) {
    // Upstream quirk: the Go field name is used as the path (capital L).
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') errs.push(fieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    // Space padding is tolerated, a leftover from the annotation era.
    sourceRanges.forEach((value, i) => errs.push(...validateCIDR(`${path}[${i}]`, value.trim())));
  } else if (SOURCE_RANGES_ANNOTATION in annotations) {
    const path = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    if (type !== 'LoadBalancer') errs.push(fieldErrors.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotations[SOURCE_RANGES_ANNOTATION].trim();
    if (value !== '') for (const cidr of value.split(',')) errs.push(...validateCIDR(path, cidr.trim()));
  }

  if (spec.allocateLoadBalancerNodePorts !== undefined && type !== 'LoadBalancer') {
    errs.push(fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) {
    // Upstream quirk: the path lacks the `spec.` prefix.
    errs.push(fieldErrors.required('allocateLoadBalancerNodePorts'));
  }

  errs.push(...validateLoadBalancerClassField(undefined, svc));
  errs.push(...validateServiceExternalTrafficPolicy(svc));
  errs.push(...validateServiceInternalTrafficFieldsValue(svc));
  errs.push(...validateServiceTrafficDistribution(svc));
  return errs;
}

/**
 * What a create returns: ValidateServiceCreate (= ValidateService) and, only when that passed,
 * the generic registry metadata check (path-segment name rules) — rest.BeforeCreate.
 */
export function validateServiceCreate(svc: Service): FieldError[] {
  const errs = validateService(svc);
  if (errs.length) return errs;
  return validateGenericObjectMeta(svc.metadata, { nameFn: validatePathSegmentName, namespaced: true });
}

/** ValidateServiceUpdate alone (strategy.ValidateUpdate): ObjectMetaUpdate + update rules + ValidateService. */
export function validateServiceUpdateStrategy(svc: Service, oldSvc: Service): FieldError[] {
  return [
    ...validateObjectMetaUpdate(svc.metadata, oldSvc.metadata),
    ...validateUpgradeDowngradeClusterIPs(oldSvc, svc),
    ...validateUpgradeDowngradeIPFamilies(oldSvc, svc),
    ...validateLoadBalancerClassField(oldSvc, svc),
    ...(needsHealthCheck(oldSvc.spec) && needsHealthCheck(svc.spec) && (svc.spec.healthCheckNodePort ?? 0) !== (oldSvc.spec.healthCheckNodePort ?? 0)
      ? [fieldErrors.forbidden('spec.healthCheckNodePort', 'field is immutable')]
      : []),
    ...validateService(svc),
  ];
}

/**
 * What an update returns (rest.BeforeUpdate): the generic metadata create + update checks,
 * then ValidateServiceUpdate — so a metadata error appears four times in the causes (§2.7).
 * `svc` must already carry the stored resourceVersion when the client sent none.
 */
export function validateServiceUpdate(svc: Service, oldSvc: Service): FieldError[] {
  return [
    ...validateGenericObjectMeta(svc.metadata, { nameFn: validatePathSegmentName, namespaced: true }),
    ...validateGenericObjectMetaUpdate(svc.metadata, oldSvc.metadata),
    ...validateServiceUpdateStrategy(svc, oldSvc),
  ];
}
