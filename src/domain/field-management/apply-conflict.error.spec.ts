import { ApplyConflictError, printManager } from './apply-conflict.error';
import { fieldPath } from './field-path';
import { managerIdentifier } from './managed-fields-codec';
import { fieldElement, keyElement } from './path-element';

const update = (manager: string, subresource?: string) => managerIdentifier({ manager, operation: 'Update', apiVersion: 'v1', subresource });
const applyId = (manager: string, subresource?: string) => managerIdentifier({ manager, operation: 'Apply', subresource });

describe('apply conflicts', () => {
  it('given manager identities, when printed, then Apply, Update and status owners read as kube prints them', () => {
    expect(update('kubectl-create')).toBe('{"manager":"kubectl-create","operation":"Update","apiVersion":"v1"}');
    expect(applyId('ctrl', 'status')).toBe('{"manager":"ctrl","operation":"Apply","subresource":"status"}');
    expect(printManager(applyId('kubectl'))).toBe('"kubectl"');
    expect(printManager(applyId('ctrl', 'status'))).toBe('"ctrl" with subresource "status"');
    expect(printManager(update('kubectl-create'))).toBe('"kubectl-create" using v1');
    expect(printManager(update('lb', 'status'))).toBe('"lb" with subresource "status" using v1');
    expect(printManager('not json')).toBe('"not json"');
    expect(printManager(update('tab\there'))).toBe('"tab\\there" using v1');
  });

  it('given one conflict on a port, when reported, then the message and the cause name the list-map key', () => {
    const path = [
      fieldElement('spec'),
      fieldElement('ports'),
      keyElement([
        { name: 'port', value: 80 },
        { name: 'protocol', value: 'TCP' },
      ]),
      fieldElement('targetPort'),
    ];
    const err = new ApplyConflictError([{ manager: update('kubectl-create'), path }]);
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .spec.ports[port=80,protocol="TCP"].targetPort');
    expect(err.details).toEqual({
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.spec.ports[port=80,protocol="TCP"].targetPort' }],
    });
  });

  it('given several conflicts from one manager, when reported, then they are listed under it', () => {
    const err = new ApplyConflictError([
      { manager: applyId('helm'), path: fieldPath('spec', 'selector') },
      { manager: applyId('helm'), path: fieldPath('metadata', 'labels', 'app') },
    ]);
    expect(err.message).toBe('Apply failed with 2 conflicts: conflicts with "helm":\n- .spec.selector\n- .metadata.labels.app');
  });

  it('given conflicts with several managers, when reported, then managers are grouped and sorted by identity', () => {
    const ready = [fieldElement('status'), fieldElement('conditions'), keyElement([{ name: 'type', value: 'Ready' }]), fieldElement('status')];
    const err = new ApplyConflictError([
      { manager: update('zeta'), path: fieldPath('spec', 'type') },
      { manager: update('lb', 'status'), path: ready },
      { manager: applyId('argo'), path: fieldPath('spec', 'selector') },
      { manager: update('zeta'), path: fieldPath('spec', 'sessionAffinity') },
    ]);
    expect(err.message).toBe(
      'Apply failed with 4 conflicts: conflicts with "argo":\n- .spec.selector\n' +
        'conflicts with "lb" with subresource "status" using v1:\n- .status.conditions[type="Ready"].status\n' +
        'conflicts with "zeta" using v1:\n- .spec.type\n- .spec.sessionAffinity',
    );
    expect(err.details!.causes).toHaveLength(4);
  });
});
