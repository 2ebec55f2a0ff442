import { type ManagedFieldsEntry } from '../service.types';
import { ownershipChanges, ownersOf } from './ownership-diff';

const lb = (manager: string, subresource?: string, fieldsV1: Record<string, unknown> = { 'f:status': { 'f:loadBalancer': { 'f:ingress': {} } } }): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});

describe('ownership changes', () => {
  it('given a controller owned the ingress, when another one writes it, then the change reads as lost by one and gained by the other', () => {
    const before = [lb('old-ctrl', 'status')];
    const after = [lb('new-ctrl', 'status')];
    expect(ownershipChanges(before, after)).toEqual([
      { owner: { manager: 'new-ctrl', operation: 'Update', subresource: 'status', apiVersion: 'v1' }, gained: ['.status.loadBalancer.ingress'], lost: [] },
      { owner: { manager: 'old-ctrl', operation: 'Update', subresource: 'status', apiVersion: 'v1' }, gained: [], lost: ['.status.loadBalancer.ingress'] },
    ]);
  });

  it('given managedFields, when asked who owns a prefix, then owners of the path or anything below it are returned', () => {
    const entries = [lb('ctrl', 'status'), lb('kubectl-create', undefined, { 'f:spec': { 'f:type': {} } })];
    expect(ownersOf(entries, '.status.loadBalancer').map((o) => o.manager)).toEqual(['ctrl']);
    expect(ownersOf(entries, '.spec.type').map((o) => o.manager)).toEqual(['kubectl-create']);
    expect(ownersOf(entries, '.spec.typo')).toEqual([]);
  });
});
