import { type FieldError } from '../errors/field-error';
import { type LoadBalancerIngress } from '../service.types';
import { validateLoadBalancerStatus } from './load-balancer-status.validation';

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);
const P = 'status.loadBalancer.ingress[0]';

describe('validateLoadBalancerStatus', () => {
  it.each<[string, string, LoadBalancerIngress[], string[]]>([
    ['no ingress on ClusterIP', 'ClusterIP', [], []],
    ['ip with VIP', 'LoadBalancer', [{ ip: '203.0.113.7', ipMode: 'VIP' }], []],
    ['hostname only', 'LoadBalancer', [{ hostname: 'lb.example.com' }], []],
    ['empty entry', 'LoadBalancer', [{}], []],
    // §8 case 55
    ['ip without ipMode', 'LoadBalancer', [{ ip: '203.0.113.7' }], [`${P}.ipMode: Required value: must be specified when \`ip\` is set`]],
    // §8 case 56: only the Forbidden, nothing else is checked
    ['ingress on ClusterIP', 'ClusterIP', [{ ip: 'abc' }], ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"]],
    // §8 case 57
    ['bad ip', 'LoadBalancer', [{ ip: 'abc', ipMode: 'VIP' }], [`${P}.ip: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`]],
    ['hostname is an IP', 'LoadBalancer', [{ hostname: '1.2.3.4' }], [`${P}.hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address`]],
    ['ipMode without ip', 'LoadBalancer', [{ hostname: 'lb.example.com', ipMode: 'VIP' }], [`${P}.ipMode: Forbidden: may not be specified when \`ip\` is not set`]],
    ['unsupported ipMode', 'LoadBalancer', [{ ip: '1.2.3.4', ipMode: 'Foo' }], [`${P}.ipMode: Unsupported value: "Foo": supported values: "Proxy", "VIP"`]],
    ['hostname that is neither', 'LoadBalancer', [{ hostname: 'LB_1' }, { ip: '::1', ipMode: 'Proxy' }], [`${P}.hostname: Invalid value: "LB_1": ${DNS1123_SUBDOMAIN}`]],
    ['ports are not validated', 'LoadBalancer', [{ ip: '1.2.3.4', ipMode: 'VIP', ports: [{ port: -1, protocol: 'X' }] }], []],
  ])('%s', (_name, type, ingress, expected) => {
    expect(lines(validateLoadBalancerStatus({ ingress }, { type }))).toEqual(expected);
  });
});
