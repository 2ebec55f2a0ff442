import { requestTarget } from './request-target';

describe('requestTarget', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/services', 'services', 'list'],
    ['GET', '/api/v1/services?limit=5', 'services', 'list'],
    ['GET', '/api/v1/namespaces/ns/services/web', 'services', 'get'],
    ['GET', '/api/v1/namespaces/ns/services/web/status', 'services', 'get'],
    ['GET', '/api/v1/namespaces/ns/services?watch=true&resourceVersion=5', 'services', 'watch'],
    ['GET', '/api/v1/watch/namespaces/ns/services', 'services', 'watch'],
    ['GET', '/api/v1/watch/namespaces/ns/services/web', 'services', 'watch'],
    ['GET', '/api/v1/namespaces/ns/services?watch=True', 'services', 'watch'],
    ['GET', '/api/v1/namespaces/ns/services?watch', 'services', 'watch'],
    ['GET', '/api/v1/namespaces/ns/services?watch=FALSE', 'services', 'list'],
    ['GET', '/api/v1/namespaces/ns/services?watch=0&watch=1', 'services', 'list'],
    ['GET', '/api/v1/events', 'events', 'list'],
    ['POST', '/api/v1/namespaces/ns/services', 'services', 'create'],
    ['PUT', '/api/v1/namespaces/ns/services/web/status', 'services', 'update'],
    ['PATCH', '/api/v1/namespaces/ns/services/web', 'services', 'patch'],
    ['DELETE', '/api/v1/namespaces/ns/services/web', 'services', 'delete'],
    ['GET', '/apis/history.svctrail.io/v1alpha1/namespaces/ns/services/web/changes', 'services.history.svctrail.io', 'get'],
    ['GET', '/apis/history.svctrail.io/v1alpha1/ingressowners?address=10.0.0.1', 'ingressowners.history.svctrail.io', 'list'],
  ])('%s %s is %s %s', (method, url, resource, operation) => {
    expect(requestTarget({ method, url })).toEqual({ resource, operation });
  });
});
