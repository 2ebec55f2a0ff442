import { type FieldError } from '../errors/field-error';
import { type ServicePort } from '../service.types';
import { validatePortNumOrName, validateServicePort } from './service-port.validation';

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateServicePort', () => {
  it.each<[string, ServicePort, boolean, string[]]>([
    ['single unnamed port', { protocol: 'TCP', port: 80, targetPort: 80 }, false, []],
    ['name required when several', { protocol: 'TCP', port: 80, targetPort: 80 }, true, ['p.name: Required value']],
    ['named target port', { name: 'web', protocol: 'SCTP', port: 80, targetPort: 'http' }, true, []],
    ['protocol missing', { port: 80, targetPort: 80 }, false, ['p.protocol: Required value']],
    ['numeric string targetPort', { protocol: 'UDP', port: 53, targetPort: '53' }, false, ['p.targetPort: Invalid value: "53": must contain at least one letter (a-z)']],
    ['absent targetPort is int 0', { protocol: 'TCP', port: 80 }, false, ['p.targetPort: Invalid value: 0: must be between 1 and 65535, inclusive']],
    ['appProtocol ok', { protocol: 'TCP', port: 80, targetPort: 80, appProtocol: 'kubernetes.io/h2c' }, false, []],
  ])('%s', (_name, port, requireName, expected) => {
    expect(lines(validateServicePort(port, requireName, new Set(), 'p'))).toEqual(expected);
  });

  it('tracks names across ports', () => {
    const names = new Set<string>();
    validateServicePort({ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }, true, names, 'spec.ports[0]');
    expect(lines(validateServicePort({ name: 'http', protocol: 'UDP', port: 80, targetPort: 80 }, true, names, 'spec.ports[1]'))).toEqual(['spec.ports[1].name: Duplicate value: "http"']);
  });

  it('ValidatePortNumOrName', () => {
    expect(lines(validatePortNumOrName('t', 65536))).toEqual(['t: Invalid value: 65536: must be between 1 and 65535, inclusive']);
    expect(validatePortNumOrName('t', 'metrics')).toEqual([]);
  });
});
