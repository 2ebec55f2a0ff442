// /metrics in Prometheus format, fed by real traffic.
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('/metrics', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('counts requests, appended events, commits, watches and database size', async () => {
    const ns = '/api/v1/namespaces/metrics/services';
    const created = await t.client.post(ns, { metadata: { name: 'm' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    await t.client.put(`${ns}/m/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } });
    await t.client.get(`${ns}/nope`);
    const watch = await t.client.stream(`${ns}?watch=true&resourceVersion=0`);
    await watch.next();
    const text = (await t.client.get('/metrics', { accept: 'text/plain' })).text;
    watch.close();
    expect(text).toMatch(/^apiserver_request_total\{verb="create",resource="services",subresource="",code="201"\} 1$/m);
    expect(text).toMatch(/^apiserver_request_total\{verb="update",resource="services",subresource="status",code="200"\} 1$/m);
    expect(text).toMatch(/^apiserver_request_total\{verb="get",resource="services",subresource="",code="404"\} 1$/m);
    // How long it took depends on the machine; that it was observed once, in the last bucket, does not.
    expect(text).toMatch(/^apiserver_request_duration_seconds_bucket\{le="\+Inf",verb="create",resource="services",subresource=""\} 1$/m);
    expect(text).toMatch(/^apiserver_request_duration_seconds_count\{verb="create",resource="services",subresource=""\} 1$/m);
    expect(text).toMatch(/^svctrail_events_appended_total\{type="LoadBalancerIngressChanged"\} 1$/m);
    expect(text).toMatch(/^svctrail_commit_batch_size_count \d+$/m);
    expect(text).toMatch(/^svctrail_commit_duration_seconds_sum [0-9.e-]+$/m);
    expect(text).toMatch(/^svctrail_watches_open 1$/m);
    expect(text).toMatch(/^svctrail_watch_lag_resource_versions 0$/m);
    expect(Number(/^svctrail_database_bytes (\d+)$/m.exec(text)![1])).toBeGreaterThan(4096);
    expect(text).toMatch(/^svctrail_wal_checkpoint_failures_total\{stage="worker"\} 0$/m);
    expect(text).toMatch(/^svctrail_wal_checkpoint_failures_total\{stage="checkpoint"\} 0$/m);
  });

  it('needs credentials', async () => {
    expect((await t.client.get('/metrics', { token: null })).status).toBe(401);
  });
});
