import { encodeService } from '../codec/service-encoder';
import { type Service } from '../service.types';
import { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';

const entry = (time: string) => ({ manager: 'm', operation: 'Apply', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:type': {} } } });
const svc = (type: string, time: string): Service => ({ metadata: { name: 'web', managedFields: [entry(time)] }, spec: { type }, status: { loadBalancer: {} } });

describe('ignoreManagedFieldsTimestamps', () => {
  it('given a write that only moved managedFields times, when checked, then the old times are kept', () => {
    const out = ignoreManagedFieldsTimestamps(svc('NodePort', '2026-01-01T00:00:00Z'), svc('NodePort', '2026-01-01T00:05:00Z'));
    expect(out.metadata.managedFields![0].time).toBe('2026-01-01T00:00:00Z');
  });

  it('given a repeated write, when its times are restored, then the object is byte for byte the stored one', () => {
    // The no-op check compares bytes: the restored time must keep its place in the entry.
    const stored = svc('NodePort', '2026-01-01T00:00:00Z');
    const out = ignoreManagedFieldsTimestamps(stored, svc('NodePort', '2026-01-01T00:05:00Z'));
    expect(JSON.stringify(out)).toBe(JSON.stringify(encodeService(stored)));
  });

  it('given a write that also changed the object, when checked, then the new times stay', () => {
    const out = ignoreManagedFieldsTimestamps(svc('ClusterIP', '2026-01-01T00:00:00Z'), svc('NodePort', '2026-01-01T00:05:00Z'));
    expect(out.metadata.managedFields![0].time).toBe('2026-01-01T00:05:00Z');
  });
});
