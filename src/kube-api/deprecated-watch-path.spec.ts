import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../domain/errors/domain-errors';
import { deprecatedWatch, deprecatedWatchOf, fieldSelectorForName, rewriteDeprecatedWatch } from './deprecated-watch-path';

/** What discovery would say with a named group and a cluster-scoped resource beside svctrail's own. */
const withMore = (group: string, version: string, resource: string) =>
  group === 'events.k8s.io' && version === 'v1' && resource === 'events' ? 'Namespaced' : group === '' && version === 'v1' && resource === 'nodes' ? 'Cluster' : undefined;

describe('deprecated watch paths (installer.go WATCH and WATCHLIST)', () => {
  describe('the resources discovery lists as watchable', () => {
    it.each([
      ['/api/v1/watch/namespaces/ns/services', '/api/v1/namespaces/ns/services', undefined],
      ['/api/v1/watch/namespaces/ns/services/web', '/api/v1/namespaces/ns/services', 'web'],
      ['/api/v1/watch/services', '/api/v1/services', undefined],
      ['/api/v1/watch/namespaces/ns/events', '/api/v1/namespaces/ns/events', undefined],
      ['/api/v1/watch/namespaces/ns/events/web.17d2e3f4a5b6c7d8', '/api/v1/namespaces/ns/events', 'web.17d2e3f4a5b6c7d8'],
      ['/api/v1/watch/events', '/api/v1/events', undefined],
      // The query goes along as is; the namespace stays encoded for the router, the name is decoded.
      ['/api/v1/watch/namespaces/ns/services?watch=0&resourceVersion=5', '/api/v1/namespaces/ns/services?watch=0&resourceVersion=5', undefined],
      ['/api/v1/watch/namespaces/n%73/services/a%2Cb', '/api/v1/namespaces/n%73/services', 'a,b'],
    ])('given %s, it watches %s (name %s)', (url, listUrl, name) => {
      expect(deprecatedWatch(url)).toEqual({ listUrl, name });
    });

    it.each([
      // Not a watch path at all.
      '/api/v1/namespaces/ns/services',
      '/api/v1/namespaces/watch/services',
      '/api/v1/watch',
      '/api/v1/watch/',
      '/watch/services',
      // No WATCH route: subresources, a namespaced resource by name without its namespace, empty segments.
      '/api/v1/watch/namespaces/ns/services/web/status',
      '/api/v1/watch/services/web',
      '/api/v1/watch/namespaces//services',
      '/api/v1/watch/namespaces/ns/services/',
      // Resources svctrail does not serve, or serves without watch (the history group, the reviews).
      '/api/v1/watch/namespaces/ns/pods',
      '/api/v1/watch/namespaces',
      '/api/v1/watch/namespaces/ns',
      '/api/v2/watch/namespaces/ns/services',
      '/apis/history.svctrail.io/v1alpha1/watch/changes',
      '/apis/history.svctrail.io/v1alpha1/watch/namespaces/ns/changes',
      '/apis/history.svctrail.io/v1alpha1/watch/feed',
      '/apis/authorization.k8s.io/v1/watch/selfsubjectaccessreviews',
      // A name that does not decode.
      '/api/v1/watch/namespaces/ns/services/%zz',
    ])('given %s, it is not one', (url) => {
      expect(deprecatedWatch(url)).toBeUndefined();
    });
  });

  describe('any group, by scope', () => {
    it.each([
      ['/apis/events.k8s.io/v1/watch/namespaces/ns/events', '/apis/events.k8s.io/v1/namespaces/ns/events', undefined],
      ['/apis/events.k8s.io/v1/watch/namespaces/ns/events/e1', '/apis/events.k8s.io/v1/namespaces/ns/events', 'e1'],
      ['/apis/events.k8s.io/v1/watch/events', '/apis/events.k8s.io/v1/events', undefined],
      ['/api/v1/watch/nodes', '/api/v1/nodes', undefined],
      ['/api/v1/watch/nodes/n1', '/api/v1/nodes', 'n1'],
    ])('given %s, it watches %s (name %s)', (url, listUrl, name) => {
      expect(deprecatedWatch(url, withMore)).toEqual({ listUrl, name });
    });

    it.each(['/apis/events.k8s.io/v1/watch/events/e1', '/api/v1/watch/namespaces/ns/nodes', '/apis/events.k8s.io/v2/watch/events'])('given %s, it is not one', (url) => {
      expect(deprecatedWatch(url, withMore)).toBeUndefined();
    });
  });

  describe('the rewrite before routing', () => {
    const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;

    it.each([
      ['GET', '/api/v1/watch/namespaces/ns/services/web?timeoutSeconds=5', '/api/v1/namespaces/ns/services?timeoutSeconds=5'],
      // Only GET is routed: other methods keep their path and answer 405 (resource-routes.ts).
      ['POST', '/api/v1/watch/namespaces/ns/services', '/api/v1/watch/namespaces/ns/services'],
      ['DELETE', '/api/v1/watch/namespaces/ns/services/web', '/api/v1/watch/namespaces/ns/services/web'],
      ['HEAD', '/api/v1/watch/services', '/api/v1/watch/services'],
      ['GET', '/api/v1/namespaces/ns/services?watch=1', '/api/v1/namespaces/ns/services?watch=1'],
      ['GET', '/apis/history.svctrail.io/v1alpha1/watch/changes', '/apis/history.svctrail.io/v1alpha1/watch/changes'],
    ])('%s %s is routed as %s', (method, url, routed) => {
      expect(rewriteDeprecatedWatch(request(method, url))).toBe(routed);
    });

    it('a routed request knows the path it came in on only when it was rewritten', () => {
      expect(deprecatedWatchOf({ originalUrl: '/api/v1/watch/services', url: '/api/v1/services' })).toEqual({ listUrl: '/api/v1/services', name: undefined });
      expect(deprecatedWatchOf({ originalUrl: '/api/v1/services', url: '/api/v1/services' })).toBeUndefined();
    });
  });

  describe('the name in the path as a field selector (ListResource)', () => {
    it.each([
      [undefined, undefined, undefined],
      ['spec.type=ClusterIP', undefined, 'spec.type=ClusterIP'],
      [undefined, 'web', 'metadata.name=web'],
      ['', 'web', 'metadata.name=web'],
      [',', 'web', 'metadata.name=web'],
      [undefined, 'a,b=c\\d', 'metadata.name=a\\,b\\=c\\\\d'],
      ['metadata.name=web', 'web', 'metadata.name=web'],
      ['metadata.name==web,spec.type=ClusterIP', 'web', 'metadata.name==web,spec.type=ClusterIP'],
    ])('given the selector %j and the name %j, it selects %j', (selector, name, selected) => {
      expect(fieldSelectorForName(selector, name)).toBe(selected);
    });

    it.each([
      ['metadata.name=other', 'web'],
      ['metadata.name!=web', 'web'],
      ['spec.type=ClusterIP', 'web'],
    ])('given the selector %j and the name %j, it is a 400', (selector, name) => {
      expect(() => fieldSelectorForName(selector, name)).toThrow(BadRequestError);
      expect(() => fieldSelectorForName(selector, name)).toThrow("fieldSelector metadata.name doesn't match requested name");
    });

    it('a selector that does not parse is ParseSelector’s 400', () => {
      expect(() => fieldSelectorForName('metadata.name', 'web')).toThrow("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
    });
  });
});
