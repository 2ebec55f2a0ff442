import { validateConfig } from '../config/app-config';
import { MetricsService } from '../observability/metrics.service';
import { MirrorStatus } from './mirror-status';

function status() {
  const metrics = new MetricsService(validateConfig({}));
  return { mirror: new MirrorStatus(metrics), metrics: () => metrics.registry.metrics() };
}

describe('MirrorStatus', () => {
  it('is ready when the Services are in sync, whatever the Events reflector does (Events are best-effort)', () => {
    const { mirror } = status();
    mirror.lead(true);
    expect(mirror.ready).toBe(false);
    expect(mirror.notReadyReason).toBe('the first list of the source has not been recorded yet');
    mirror.events.inSync();
    expect(mirror.ready).toBe(false);
    mirror.services.inSync();
    mirror.events.outOfSync('forbidden: User "mirror" cannot list resource "events"');
    expect(mirror.ready).toBe(true);
    expect(mirror.notReadyReason).toBe('');
    mirror.services.outOfSync('connect ECONNREFUSED');
    expect(mirror.notReadyReason).toBe('connect ECONNREFUSED');
  });

  it('is not ready before its first try for the lease is decided: a lone replica would say ready having recorded nothing', () => {
    const { mirror } = status();
    expect(mirror.ready).toBe(false);
    expect(mirror.notReadyReason).toBe('the first list of the source has not been recorded yet');
    mirror.lead(true);
    expect(mirror.ready).toBe(false);
  });

  it('is ready as a standby (another replica records), and a lost lease puts both reflectors out of sync', () => {
    const { mirror } = status();
    mirror.lead(false);
    expect(mirror.ready).toBe(true);
    mirror.lead(true);
    mirror.services.inSync();
    mirror.events.inSync();
    mirror.lead(false);
    expect([mirror.services.synced, mirror.events.synced, mirror.ready]).toEqual([false, false, true]);
  });

  it('reports each reflector under its resource label', async () => {
    const { mirror, metrics } = status();
    mirror.events.inSync();
    mirror.events.relisted();
    mirror.events.recordedWrites('relist', 3, 0.01);
    const text = await metrics();
    expect(text).toMatch(/^svctrail_mirror_synced\{resource="events"\} 1$/m);
    expect(text).toMatch(/^svctrail_mirror_synced\{resource="services"\} 0$/m);
    expect(text).toMatch(/^svctrail_mirror_relists_total\{resource="events"\} 1$/m);
    expect(text).toMatch(/^svctrail_mirror_relists_total\{resource="services"\} 0$/m);
    expect(text).toMatch(/^svctrail_mirror_recorded_writes_total\{resource="events",via="relist"\} 3$/m);
    expect(text).toMatch(/^svctrail_mirror_record_lag_seconds_count\{resource="events"\} 1$/m);
    expect(text).toMatch(/^svctrail_mirror_leader 0$/m);
  });
});
