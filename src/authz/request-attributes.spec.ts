import { requestAttributes } from './request-attributes';

describe('requestAttributes (RequestInfoFactory.NewRequestInfo)', () => {
  // Cases from upstream's TestGetAPIRequestInfo, then svctrail's own routes.
  it.each([
    ['GET', '/api/v1/namespaces', 'list', '', 'v1', '', 'namespaces', '', ''],
    ['GET', '/api/v1/namespaces/other', 'get', '', 'v1', 'other', 'namespaces', '', 'other'],
    ['GET', '/api/v1/namespaces/other/pods', 'list', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'get', '', 'v1', 'other', 'pods', '', 'foo'],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', 'get', '', 'v1', 'other', 'pods', '', 'foo'],
    ['HEAD', '/api/v1/pods', 'list', '', 'v1', '', 'pods', '', ''],
    // A namespace object names itself as its namespace ("namespaces are weird").
    ['PATCH', '/api/v1/namespaces/new-namespace', 'patch', '', 'v1', 'new-namespace', 'namespaces', '', 'new-namespace'],
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo', 'proxy', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource', 'proxy', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/watch/pods', 'watch', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=true', 'watch', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=false', 'list', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods', 'watch', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=1', 'watch', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=0', 'list', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo/status', 'get', '', 'v1', 'other', 'pods', 'status', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods/foo/proxy/subpath', 'get', '', 'v1', 'other', 'pods', 'proxy', 'foo'],
    ['PUT', '/api/v1/namespaces/other/finalize', 'update', '', 'v1', 'other', 'namespaces', 'finalize', 'other'],
    ['PUT', '/api/v1/namespaces/other/status', 'update', '', 'v1', 'other', 'namespaces', 'status', 'other'],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', 'delete', '', 'v1', 'other', 'pods', '', 'foo'],
    ['POST', '/api/v1/namespaces/other/pods', 'create', '', 'v1', 'other', 'pods', '', ''],
    ['DELETE', '/api/v1/nodes', 'deletecollection', '', 'v1', '', 'nodes', '', ''],
    ['DELETE', '/apis/extensions/v1/namespaces/other/pods', 'deletecollection', 'extensions', 'v1', 'other', 'pods', '', ''],
    ['POST', '/apis/extensions/v1beta3/namespaces/other/pods', 'create', 'extensions', 'v1beta3', 'other', 'pods', '', ''],
    ['GET', '/api/v1/services', 'list', '', 'v1', '', 'services', '', ''],
    ['GET', '/api/v1/services?watch=true&resourceVersion=5', 'watch', '', 'v1', '', 'services', '', ''],
    ['GET', '/api/v1/namespaces/default/services', 'list', '', 'v1', 'default', 'services', '', ''],
    ['POST', '/api/v1/namespaces/default/services', 'create', '', 'v1', 'default', 'services', '', ''],
    ['PUT', '/api/v1/namespaces/default/services/web', 'update', '', 'v1', 'default', 'services', '', 'web'],
    ['PATCH', '/api/v1/namespaces/default/services/web/status', 'patch', '', 'v1', 'default', 'services', 'status', 'web'],
    ['PUT', '/api/v1/namespaces/default/services/web/status', 'update', '', 'v1', 'default', 'services', 'status', 'web'],
    ['GET', '/api/v1/events?watch=1', 'watch', '', 'v1', '', 'events', '', ''],
    ['GET', '/api/v1/watch/namespaces/default/services/web', 'watch', '', 'v1', 'default', 'services', '', 'web'],
    // The verb comes from the path, so the field selector names nothing (only a "get" becomes list or watch).
    ['GET', '/api/v1/watch/namespaces/default/services?fieldSelector=metadata.name%3Dweb', 'watch', '', 'v1', 'default', 'services', '', ''],
    ['GET', '/apis/events.k8s.io/v1/watch/namespaces/default/events/e1', 'watch', 'events.k8s.io', 'v1', 'default', 'events', '', 'e1'],
    ['GET', '/api/v1/namespaces/default/events/web.1', 'get', '', 'v1', 'default', 'events', '', 'web.1'],
    ['GET', '/apis/history.svctrail.io/v1alpha1/namespaces/default/servicehistories/web', 'get', 'history.svctrail.io', 'v1alpha1', 'default', 'servicehistories', '', 'web'],
    ['OPTIONS', '/api/v1/services', '', '', 'v1', '', 'services', '', ''],
  ])('%s %s', (method, url, verb, apiGroup, apiVersion, namespace, resource, subresource, name) => {
    expect(requestAttributes(method, url)).toMatchObject({ isResourceRequest: true, verb, apiGroup, apiVersion, namespace, resource, subresource, name });
  });

  it.each([
    '/',
    '',
    '/api',
    '/api/v1',
    '/api/v1/',
    '/apis',
    '/apis/group/version/',
    '/apis/extensions/v1beta1',
    '/badprefix/version/resource',
    '/apis/version/resource',
    '/openapi/v3/api/v1',
    '/healthz',
    '/version',
  ])('%s is a non-resource request', (url) => {
    const attributes = requestAttributes('GET', url);
    expect(attributes).toMatchObject({ isResourceRequest: false, verb: 'get', path: url, resource: '', namespace: '' });
  });

  it('non-resource verbs are the lowercase HTTP method, and the path is decoded', () => {
    expect(requestAttributes('POST', '/ap%69?x=1')).toMatchObject({ isResourceRequest: false, verb: 'post', path: '/api' });
    expect(requestAttributes('HEAD', '/healthz')).toMatchObject({ verb: 'head' });
  });

  it('path segments are decoded one by one, as the router decodes parameters', () => {
    expect(requestAttributes('GET', '/api/v1/namespaces/a%2Fb/services/w%65b')).toMatchObject({ namespace: 'a/b', resource: 'services', name: 'web' });
  });

  it('/api/v1/watch alone is a resource request with no resource', () => {
    expect(requestAttributes('GET', '/api/v1/watch')).toMatchObject({ isResourceRequest: true, verb: 'get', resource: '' });
  });

  describe('watch parameter (Convert_Slice_string_To_bool)', () => {
    it.each([
      ['watch=true', 'watch'],
      ['watch=TRUE', 'watch'],
      ['watch=yes', 'watch'],
      ['watch=', 'watch'],
      ['watch', 'watch'],
      ['watch=False', 'list'],
      ['watch=0', 'list'],
      ['watch=0&watch=1', 'list'],
      ['watch=True', 'watch'],
      ['watch=FALSE', 'list'],
      // Convert_Slice_string_To_bool folds case as strings.EqualFold: the long s is an s...
      ['watch=fal%C5%BFe', 'list'],
      // ... but when any parameter fails to decode, RequestInfo's fallback lowercases with strings.ToLower.
      ['watch=fal%C5%BFe&limit=abc', 'watch'],
      ['watch=FALSE&limit=', 'list'],
      ['watch=1&timeoutSeconds=9223372036854775808', 'watch'],
      ['', 'list'],
    ])('?%s is %s', (query, verb) => {
      expect(requestAttributes('GET', `/api/v1/services?${query}`).verb).toBe(verb);
    });
  });

  describe('metadata.name field selectors name the object (TestFieldSelectorParsing)', () => {
    it.each([
      ['', '', 'list'],
      ['fieldSelector=metadata.name=name1', 'name1', 'list'],
      ['watch=true&fieldSelector=metadata.name=name1', 'name1', 'watch'],
      ['fieldSelector=metadata.name%3D%3Dname1', 'name1', 'list'],
      ['fieldSelector=metadata.name!%3Dname1', '', 'list'],
      ['fieldSelector=foo=bar', '', 'list'],
      ['fieldSelector=spec.type%3DClusterIP,metadata.name%3Dweb', 'web', 'list'],
      ['fieldSelector=metadata.name=name1,foo', '', 'list'],
      ['fieldSelector=metadata.name=name1,foo&watch=true', '', 'watch'],
      ['fieldSelector=metadata.name=name1,foo&watch=false', '', 'list'],
      ['fieldSelector=metadata.name=a%5C%2Cb', 'a,b', 'list'],
      ['fieldSelector=metadata.name=a%2Fb', '', 'list'],
      ['fieldSelector=metadata.name=..', '', 'list'],
      ['fieldSelector=metadata.name=web&labelSelector=a%20b', '', 'list'],
      ['fieldSelector=metadata.name=web&timeoutSeconds=abc&watch=1', '', 'watch'],
      ['fieldSelector=metadata.name=web&timeoutSeconds=30&limit=5', 'web', 'list'],
    ])('?%s', (query, name, verb) => {
      expect(requestAttributes('GET', `/apis/group/version/resource?${query}`)).toMatchObject({ name, verb });
    });

    it('a named GET keeps its name whatever the selector says', () => {
      expect(requestAttributes('GET', '/api/v1/namespaces/d/services/web?fieldSelector=metadata.name=x')).toMatchObject({ name: 'web', verb: 'get' });
    });
  });
});
