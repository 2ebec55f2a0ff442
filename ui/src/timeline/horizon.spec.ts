import { conditionsBefore, horizonOf } from './horizon';
import type { TransitionItem } from './lanes';

const transition = (conditionType: string, fromStatus: string | null, toStatus: string | null): TransitionItem => ({
  conditionType,
  fromStatus,
  toStatus,
  reason: 'R',
  message: '',
  time: '2026-03-01T00:00:00Z',
  actor: { user: 'lb', userAgent: 'lb/1', fieldManager: 'lb' },
});

describe('the compaction horizon in the timeline', () => {
  it('given no compaction, there is no horizon', () => {
    expect(horizonOf([])).toBeUndefined();
  });

  it('given several compactions, the newest one is in force', () => {
    const items = [{ horizon: { resourceVersion: 10, time: '2026-03-01T00:00:10Z' } }, { horizon: { resourceVersion: 42, time: '2026-03-01T00:00:42.500Z' } }];
    expect(horizonOf(items)).toEqual({ resourceVersion: 42, time: Date.parse('2026-03-01T00:00:42.500Z') });
  });

  it('given transitions in a window that starts below the horizon, each condition starts as its first transition found it', () => {
    const transitions = [transition('Ready', 'False', 'True'), transition('DNSReady', null, 'True'), transition('Ready', 'True', 'False'), transition('Healthy', 'Unknown', null)];
    expect(conditionsBefore(transitions)).toEqual({ Ready: 'False', Healthy: 'Unknown' });
  });
});
