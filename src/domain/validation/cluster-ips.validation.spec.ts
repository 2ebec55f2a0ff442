import { type FieldError } from '../errors/field-error';
import { type Service, type ServiceSpec } from '../service.types';
import { isHeadlessService, validateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies } from './cluster-ips.validation';

const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

function svc(spec: Partial<ServiceSpec>): Service {
  return {
    metadata: { name: 'web', namespace: 'default' },
    spec: { type: 'ClusterIP', ...spec },
    status: { loadBalancer: {} },
  };
}

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateServiceClusterIPsRelatedFields', () => {
  it.each<[string, Partial<ServiceSpec>, string[]]>([
    ['nothing set (before allocation)', {}, []],
    ['allocated single stack', { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' }, []],
    ['headless', { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4', 'IPv6'] }, []],
    ['clusterIP without clusterIPs', { clusterIP: '10.96.0.10' }, ['spec.clusterIPs: Required value']],
    ['clusterIPs[0] differs', { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.11'] }, ['spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: first value must match `clusterIP`']],
    // §8 case 20
    ['clusterIPs without clusterIP', { clusterIPs: ['10.96.0.50'] }, ['spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: must be empty when `clusterIP` is not specified']],
    [
      'bad and duplicate families',
      { ipFamilies: ['IPv5', 'IPv4', 'IPv4'] },
      ['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"', 'spec.ipFamilies[2]: Duplicate value: "IPv4"'],
    ],
    ['bad policy', { ipFamilyPolicy: 'X' }, ['spec.ipFamilyPolicy: Unsupported value: "X": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"']],
    ['None not alone', { clusterIP: 'None', clusterIPs: ['None', '10.96.0.1'] }, ['spec.clusterIPs: Invalid value: []string{"None", "10.96.0.1"}: \'None\' must be the first and only value']],
    [
      'invalid IPs stop before family checks',
      { clusterIP: 'x', clusterIPs: ['x', 'None', '10.0.0.1'], ipFamilies: ['IPv6'] },
      [
        `spec.clusterIPs[0]: Invalid value: "x": ${IP_MSG}`,
        `spec.clusterIPs[1]: Invalid value: "None": ${IP_MSG}`,
        'spec.clusterIPs: Invalid value: []string{"x", "None", "10.0.0.1"}: may only hold up to 2 values',
      ],
    ],
    [
      'two IPv4',
      { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '10.0.0.2'] },
      ['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family'],
    ],
    ['sloppy IPv4 with leading zeros is valid', { clusterIP: '010.0.0.1', clusterIPs: ['010.0.0.1'] }, []],
    [
      'family mismatch both ways',
      { clusterIP: 'fd00::1', clusterIPs: ['fd00::1', '10.0.0.1'], ipFamilies: ['IPv4', 'IPv6'] },
      [
        'spec.clusterIPs[0]: Invalid value: "fd00::1": expected an IPv4 value as indicated by `ipFamilies[0]`',
        'spec.clusterIPs[1]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[1]`',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(lines(validateServiceClusterIPsRelatedFields(svc(spec)))).toEqual(expected);
  });

  it('skips ExternalName services', () => {
    expect(validateServiceClusterIPsRelatedFields(svc({ type: 'ExternalName', clusterIPs: ['x'] }))).toEqual([]);
  });

  it('reports reasons', () => {
    const errs = validateServiceClusterIPsRelatedFields(svc({ clusterIP: '10.0.0.1', ipFamilies: ['IPv5'] }));
    expect(errs.map((e) => e.reason)).toEqual(['FieldValueRequired', 'FieldValueNotSupported']);
  });

  it('recognises headless services', () => {
    expect(isHeadlessService(svc({ clusterIPs: ['None'] }))).toBe(true);
    expect(isHeadlessService(svc({ clusterIPs: ['None', '10.0.0.1'] }))).toBe(false);
    expect(isHeadlessService(svc({}))).toBe(false);
  });
});

describe('validateUpgradeDowngradeClusterIPs', () => {
  it.each<[string, Partial<ServiceSpec>, Partial<ServiceSpec>, string[]]>([
    ['unchanged', { clusterIPs: ['10.0.0.1'] }, { clusterIPs: ['10.0.0.1'] }, []],
    ['changed primary', { clusterIPs: ['10.0.0.1'] }, { clusterIPs: ['10.0.0.99'] }, ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.99"}: may not change once set']],
    ['to headless', { clusterIPs: ['10.0.0.1'] }, { clusterIPs: ['None'] }, ['spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set']],
    ['unset (empty slice)', { clusterIPs: ['10.0.0.1'] }, { clusterIPs: [] }, ['spec.clusterIPs[0]: Invalid value: []string{}: primary clusterIP can not be unset']],
    [
      'downgrade without SingleStack',
      { clusterIPs: ['10.0.0.1', 'fd00::1'], ipFamilyPolicy: 'PreferDualStack' },
      { clusterIPs: ['10.0.0.1'], ipFamilyPolicy: 'PreferDualStack' },
      ['spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be set to \'SingleStack\' when releasing the secondary clusterIP'],
    ],
    [
      'downgrade with nil policy prints "null"',
      { clusterIPs: ['10.0.0.1', 'fd00::1'] },
      { clusterIPs: ['10.0.0.2'] },
      [
        'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.2"}: may not change once set',
        'spec.ipFamilyPolicy: Invalid value: "null": must be set to \'SingleStack\' when releasing the secondary clusterIP',
      ],
    ],
    ['downgrade with SingleStack', { clusterIPs: ['10.0.0.1', 'fd00::1'] }, { clusterIPs: ['10.0.0.1'], ipFamilyPolicy: 'SingleStack' }, []],
    [
      'upgrade with changed primary',
      { clusterIPs: ['10.0.0.1'] },
      { clusterIPs: ['10.0.0.2', 'fd00::1'] },
      ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.2", "fd00::1"}: may not change once set'],
    ],
    ['both headless', { clusterIPs: ['None'] }, { clusterIPs: ['None'] }, []],
  ])('%s', (_name, oldSpec, newSpec, expected) => {
    expect(lines(validateUpgradeDowngradeClusterIPs(svc(oldSpec), svc(newSpec)))).toEqual(expected);
  });

  it('skips ExternalName on either side', () => {
    expect(validateUpgradeDowngradeClusterIPs(svc({ type: 'ExternalName' }), svc({ clusterIPs: ['10.0.0.1'] }))).toEqual([]);
  });
});

describe('validateUpgradeDowngradeIPFamilies', () => {
  it.each<[string, Partial<ServiceSpec>, Partial<ServiceSpec>, string[]]>([
    [
      'changed family (path always [0])',
      { clusterIPs: ['10.0.0.1', 'fd00::1'], ipFamilies: ['IPv4', 'IPv6'] },
      { clusterIPs: ['10.0.0.1', 'fd00::1'], ipFamilies: ['IPv4', 'IPv5'] },
      ['spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv4", "IPv5"}: may not change once set'],
    ],
    [
      'shrink with changed primary carries clusterIPs as BadValue',
      { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4', 'IPv6'] },
      { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv6'], ipFamilyPolicy: 'SingleStack' },
      ['spec.ipFamilies[0]: Invalid value: []string{"10.0.0.1"}: may not change once set'],
    ],
    [
      'shrink without SingleStack',
      { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4', 'IPv6'] },
      { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'RequireDualStack' },
      ['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be set to \'SingleStack\' when releasing the secondary ipFamily'],
    ],
    [
      'primary unset looks at clusterIPs',
      { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4'] },
      { ipFamilies: [] },
      ['spec.ipFamilies[0]: Invalid value: []core.IPFamily{}: primary ipFamily can not be unset'],
    ],
    ['to headless is skipped', { clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4'] }, { clusterIPs: ['None'], ipFamilies: ['IPv6'] }, []],
  ])('%s', (_name, oldSpec, newSpec, expected) => {
    expect(lines(validateUpgradeDowngradeIPFamilies(svc(oldSpec), svc(newSpec)))).toEqual(expected);
  });
});
