// The `paths` of /openapi/v3/api/v1 for the Service endpoints svctrail serves, shaped as
// kube-apiserver writes them. kubectl reads only the PATCH operations (does the one tagged with
// the Service GVK declare `fieldValidation`?), but client generators read everything.
import type { OpenApiObject } from './openapi-value';
import {
  DELETE_PARAMETERS,
  DRY_RUN,
  FIELD_MANAGER,
  FIELD_VALIDATION,
  LIST_MEDIA_TYPES,
  LIST_PARAMETERS,
  NAMESPACE,
  nameParameter,
  operation,
  type OperationTarget,
  patchOperation,
  PRETTY,
  readOperation,
  replaceOperation,
  requestBody,
  response,
} from './resource-operations';

const SERVICE = 'io.k8s.api.core.v1.Service';
const SERVICE_LIST = 'io.k8s.api.core.v1.ServiceList';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

const SERVICE_TARGET: OperationTarget = { tag: 'core_v1', gvk: { group: '', kind: 'Service', version: 'v1' } };
const NAME = nameParameter('Service');

export const SERVICE_PATHS: OpenApiObject = {
  '/api/v1/namespaces/{namespace}/services': {
    get: operation(SERVICE_TARGET, 'list', 'list or watch objects of kind Service', 'listCoreV1NamespacedService', {
      parameters: LIST_PARAMETERS,
      responses: { '200': response('OK', SERVICE_LIST, LIST_MEDIA_TYPES) },
    }),
    parameters: [NAMESPACE, PRETTY],
    post: operation(SERVICE_TARGET, 'post', 'create a Service', 'createCoreV1NamespacedService', {
      parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
      requestBody: requestBody(SERVICE, ['*/*'], true),
      responses: { '200': response('OK', SERVICE), '201': response('Created', SERVICE), '202': response('Accepted', SERVICE) },
    }),
  },
  '/api/v1/namespaces/{namespace}/services/{name}': {
    delete: operation(SERVICE_TARGET, 'delete', 'delete a Service', 'deleteCoreV1NamespacedService', {
      parameters: DELETE_PARAMETERS,
      requestBody: requestBody(META + 'DeleteOptions', ['*/*'], false),
      responses: { '200': response('OK', SERVICE), '202': response('Accepted', SERVICE) },
    }),
    get: readOperation(SERVICE_TARGET, SERVICE, 'read the specified Service', 'readCoreV1NamespacedService'),
    parameters: [NAME, NAMESPACE, PRETTY],
    patch: patchOperation(SERVICE_TARGET, SERVICE, 'partially update the specified Service', 'patchCoreV1NamespacedService'),
    put: replaceOperation(SERVICE_TARGET, SERVICE, 'replace the specified Service', 'replaceCoreV1NamespacedService'),
  },
  '/api/v1/namespaces/{namespace}/services/{name}/status': {
    get: readOperation(SERVICE_TARGET, SERVICE, 'read status of the specified Service', 'readCoreV1NamespacedServiceStatus'),
    parameters: [NAME, NAMESPACE, PRETTY],
    patch: patchOperation(SERVICE_TARGET, SERVICE, 'partially update status of the specified Service', 'patchCoreV1NamespacedServiceStatus'),
    put: replaceOperation(SERVICE_TARGET, SERVICE, 'replace status of the specified Service', 'replaceCoreV1NamespacedServiceStatus'),
  },
  '/api/v1/services': {
    get: operation(SERVICE_TARGET, 'list', 'list or watch objects of kind Service', 'listCoreV1ServiceForAllNamespaces', {
      responses: { '200': response('OK', SERVICE_LIST, LIST_MEDIA_TYPES) },
    }),
    // Upstream hangs the list options on the path when GET is its only operation.
    parameters: [...LIST_PARAMETERS.slice(0, 5), PRETTY, ...LIST_PARAMETERS.slice(5)],
  },
};
