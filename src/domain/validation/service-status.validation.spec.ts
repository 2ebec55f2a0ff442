import { type FieldError } from '../errors/field-error';
import { InvalidError } from '../errors/domain-errors';
import { type ObjectMeta, type Service, type ServiceSpec, type ServiceStatus } from '../service.types';
import { validateServiceStatusUpdate } from './service-status.validation';

const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function service(type: string, status: ServiceStatus = { loadBalancer: {} }, meta: Partial<ObjectMeta> = {}, spec: Partial<ServiceSpec> = {}): Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '5', creationTimestamp: '2025-01-02T03:04:05Z', ...meta },
    spec: { type, ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }], ...spec },
    status,
  };
}
const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateServiceStatusUpdate (generic metadata + ValidateServiceStatusUpdate)', () => {
  it.each<[string, Service, Service, string[]]>([
    ['LB ingress', service('LoadBalancer'), service('LoadBalancer', { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } }), []],
    // §8 case 55: the body omitted spec, so decode did not default ipMode; the stored spec is LB.
    [
      'ipMode missing, checked against the stored spec',
      service('LoadBalancer'),
      service('ClusterIP', { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }),
      ['status.loadBalancer.ingress[0].ipMode: Required value: must be specified when `ip` is set'],
    ],
    // §8 case 56
    [
      'ingress on a ClusterIP service',
      service('ClusterIP'),
      service('LoadBalancer', { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } }),
      ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"],
    ],
    [
      'conditions are not validated',
      service('LoadBalancer'),
      service('LoadBalancer', { loadBalancer: {}, conditions: [{ type: '', status: 'Maybe', lastTransitionTime: null, reason: '', message: '' }] }),
      [],
    ],
    ['spec is not validated', service('LoadBalancer'), service('LoadBalancer', undefined, {}, { ports: [] }), []],
    [
      'a metadata cause appears three times',
      service('LoadBalancer'),
      service('LoadBalancer', undefined, { labels: { a: 'bad value!' } }),
      Array(3).fill(`metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`),
    ],
    [
      'finalizer rules: kube name rule from core update only',
      service('LoadBalancer'),
      service('LoadBalancer', undefined, { finalizers: ['foo'] }),
      ['metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified'],
    ],
    [
      'removing the last finalizer of a deleting object is valid',
      service('LoadBalancer', undefined, { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }),
      service('LoadBalancer', undefined, { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0 }),
      [],
    ],
  ])('%s', (_name, oldSvc, newSvc, expected) => {
    expect(lines(validateServiceStatusUpdate(newSvc, oldSvc))).toEqual(expected);
  });

  it('§8 case 57 message', () => {
    const errs = validateServiceStatusUpdate(service('LoadBalancer', { loadBalancer: { ingress: [{ ip: 'abc', ipMode: 'VIP' }] } }), service('LoadBalancer'));
    expect(new InvalidError('Service', 'web', errs).message).toBe(
      'Service "web" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
  });
});
