import type { ManagedFieldsEntry } from '../domain/service.types';
import type { OwnershipWrite } from '../domain/field-management';
import { ownershipIntervals } from './field-ownership-intervals';

const entry = (manager: string, operation: 'Apply' | 'Update', fieldsV1: Record<string, unknown>, subresource?: string): ManagedFieldsEntry => ({
  manager,
  operation,
  apiVersion: 'v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});
const ingress = { 'f:status': { 'f:loadBalancer': { 'f:ingress': {} } } };
const write = (rv: number, before: ManagedFieldsEntry[] | undefined, after: ManagedFieldsEntry[] | undefined | null): OwnershipWrite => ({
  resourceVersion: rv,
  time: `2026-01-01T00:00:0${rv}Z`,
  uid: 'u1',
  namespace: 'team-a',
  name: 'web',
  before,
  after,
});

describe('ownership intervals', () => {
  it('given a field set by one updater and taken by a forced apply, when folded, then one closed and one open interval', () => {
    const metallb = [entry('metallb', 'Update', ingress, 'status')];
    const kubevip = [entry('kube-vip', 'Apply', ingress, 'status')];
    const intervals = ownershipIntervals([write(1, undefined, metallb), write(2, metallb, kubevip)]);
    expect(intervals).toEqual([
      {
        service: { namespace: 'team-a', name: 'web', uid: 'u1' },
        field: '.status.loadBalancer.ingress',
        owner: { manager: 'metallb', operation: 'Update', subresource: 'status', apiVersion: 'v1' },
        from: { time: '2026-01-01T00:00:01Z', resourceVersion: 1 },
        to: { time: '2026-01-01T00:00:02Z', resourceVersion: 2, reason: 'takenOver', takenOverBy: [{ manager: 'kube-vip', operation: 'Apply', subresource: 'status' }], forced: true },
      },
      {
        service: { namespace: 'team-a', name: 'web', uid: 'u1' },
        field: '.status.loadBalancer.ingress',
        owner: { manager: 'kube-vip', operation: 'Apply', subresource: 'status' },
        from: { time: '2026-01-01T00:00:02Z', resourceVersion: 2 },
      },
    ]);
  });

  it('given an update taking a field over, when folded, then the takeover is not forced', () => {
    const a = [entry('a', 'Update', { 'f:spec': { 'f:type': {} } })];
    const b = [entry('b', 'Update', { 'f:spec': { 'f:type': {} } })];
    const [first] = ownershipIntervals([write(1, undefined, a), write(2, a, b)]);
    expect(first.to).toMatchObject({ reason: 'takenOver', forced: false });
  });

  it('given a field nobody owns afterwards, or a deleted Service, when folded, then released and deleted', () => {
    const a = [entry('a', 'Update', { 'f:spec': { 'f:type': {}, 'f:selector': {} } })];
    const onlyType = [entry('a', 'Update', { 'f:spec': { 'f:type': {} } })];
    const intervals = ownershipIntervals([write(1, undefined, a), write(2, a, onlyType), write(3, onlyType, null)]);
    expect(intervals.map((i) => [i.field, i.to?.reason])).toEqual([
      ['.spec.selector', 'released'],
      ['.spec.type', 'deleted'],
    ]);
  });
});
