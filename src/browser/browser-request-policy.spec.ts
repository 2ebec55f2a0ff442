import { requestAttributes } from '../authz/request-attributes';
import { browserSessionMayRequest } from './browser-request-policy';

describe('browserSessionMayRequest', () => {
  const may = (method: string, url: string) => browserSessionMayRequest(method, requestAttributes(method, url));

  it('allows reads of Services, Events and history', () => {
    expect(may('GET', '/api/v1/services')).toBe(true);
    expect(may('GET', '/api/v1/namespaces/a/services/web?asOf=2026-01-01T00:00:00Z')).toBe(true);
    expect(may('GET', '/api/v1/namespaces/a/services?watch=true')).toBe(true);
    expect(may('GET', '/api/v1/namespaces/a/events')).toBe(true);
    expect(may('GET', '/apis/events.k8s.io/v1/events')).toBe(true);
    expect(may('GET', '/apis/history.svctrail.io/v1alpha1/namespaces/a/services/web/changes')).toBe(true);
    expect(may('GET', '/apis/history.svctrail.io/v1alpha1/feed?follow=true')).toBe(true);
  });

  it('refuses every write and everything else', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(may(method, '/api/v1/namespaces/a/services/web')).toBe(false);
      expect(may(method, '/api/v1/namespaces/a/services/web/status')).toBe(false);
    }
    expect(may('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).toBe(false);
    expect(may('GET', '/metrics')).toBe(false);
    expect(may('GET', '/api/v1/secrets')).toBe(false);
    expect(may('GET', '/apis/apps/v1/deployments')).toBe(false);
  });
});
