import { changeSummary } from './change-summary';

const ready = (status: string, reason = 'Serving', message = 'ok') => ({ type: 'Ready', status, reason, message });

describe('changeSummary', () => {
  it('given an ingress change, when summarised, then the addresses before and after', () => {
    expect(changeSummary([{ type: 'LoadBalancerIngressChanged', data: { previous: [{ ip: '203.0.113.7' }], ingress: [{ ip: '203.0.113.8' }] } }])).toEqual(['ingress 203.0.113.7 → 203.0.113.8']);
  });

  it('given an ingress set, cleared or holding hostnames, when summarised, then "none" for an empty list and hostnames as they are', () => {
    expect(
      changeSummary([
        { type: 'LoadBalancerIngressChanged', data: { previous: [], ingress: [{ ip: '198.51.100.9' }, { hostname: 'lb.example.com' }] } },
        { type: 'LoadBalancerIngressChanged', data: { previous: [{ hostname: 'lb.example.com' }], ingress: [] } },
      ]),
    ).toEqual(['ingress none → 198.51.100.9, lb.example.com', 'ingress lb.example.com → none']);
  });

  it('given condition changes, when summarised, then the type with its status before and after', () => {
    expect(
      changeSummary([
        { type: 'ServiceConditionChanged', data: { condition: ready('False', 'Unhealthy'), previous: ready('True') } },
        { type: 'ServiceConditionChanged', data: { condition: { type: 'Degraded', status: 'Unknown' }, previous: null } },
        { type: 'ServiceConditionRemoved', data: { conditionType: 'Stale', previous: { type: 'Stale', status: 'True' } } },
      ]),
    ).toEqual(['Ready True → False', 'Degraded none → Unknown', 'Stale True → removed']);
  });

  it('given a condition whose status stayed, when summarised, then what else changed', () => {
    expect(
      changeSummary([
        { type: 'ServiceConditionChanged', data: { condition: ready('True', 'Warm'), previous: ready('True', 'Serving') } },
        { type: 'ServiceConditionChanged', data: { condition: ready('True', 'Serving', 'new'), previous: ready('True', 'Serving', 'old') } },
      ]),
    ).toEqual(['Ready True (Serving → Warm)', 'Ready True (message changed)']);
  });

  it('given a replaced conditions list, when summarised, then each type whose status changed, or that it was only reordered', () => {
    const a = { type: 'A', status: 'True' };
    const b = { type: 'B', status: 'False' };
    expect(changeSummary([{ type: 'ServiceConditionsReplaced', data: { previous: [a, b], conditions: [{ ...b, status: 'True' }, a] } }])).toEqual(['B False → True']);
    expect(changeSummary([{ type: 'ServiceConditionsReplaced', data: { previous: [a, b], conditions: [b, a] } }])).toEqual(['conditions reordered']);
  });

  it('given lifecycle, spec, metadata and managed-fields events, when summarised, then a word each and nothing for field ownership', () => {
    expect(
      changeSummary([
        { type: 'ServiceCreated', data: {} },
        { type: 'ServiceSpecChanged', data: {} },
        { type: 'ServiceMetadataChanged', data: {} },
        { type: 'ServiceManagedFieldsChanged', data: {} },
        { type: 'ServiceDeletionRequested', data: {} },
        { type: 'ServiceDeleted', data: {} },
      ]),
    ).toEqual(['created', 'spec changed', 'metadata changed', 'deletion requested', 'deleted']);
  });
});
