// validateServicePort and ValidatePortNumOrName (kubernetes pkg/apis/core/validation).
import { type FieldError, fieldErrors } from '../errors/field-error';
import { type IntOrString, type ServicePort } from '../service.types';
import { validateDNS1123Label, validateQualifiedName } from './labels.validation';
import { isValidPortName, isValidPortNum } from './name-validation';

const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** ValidatePortNumOrName: an int must be a port number, a string an IANA_SVC_NAME. */
export function validatePortNumOrName(path: string, port: IntOrString | undefined): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((msg) => fieldErrors.invalid(path, port, msg));
  // An absent intstr is the zero value {Type: Int, IntVal: 0}.
  const value = port ?? 0;
  return isValidPortNum(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/**
 * validateServicePort. `allNames` is shared across the Service's ports (duplicate names);
 * targetPort is deliberately not compared with port for headless services (v1 tolerance).
 */
export function validateServicePort(sp: ServicePort, requireName: boolean, allNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = sp.name ?? '';
  if (requireName && name.length === 0) {
    errs.push(fieldErrors.required(`${path}.name`));
  } else if (name.length !== 0) {
    errs.push(...validateDNS1123Label(`${path}.name`, name));
    if (allNames.has(name)) errs.push(fieldErrors.duplicate(`${path}.name`, name));
    else allNames.add(name);
  }

  const port = sp.port ?? 0;
  errs.push(...isValidPortNum(port).map((msg) => fieldErrors.invalid(`${path}.port`, port, msg)));

  const protocol = sp.protocol ?? '';
  if (protocol.length === 0) errs.push(fieldErrors.required(`${path}.protocol`));
  else if (!SUPPORTED_PORT_PROTOCOLS.includes(protocol)) {
    errs.push(fieldErrors.notSupported(`${path}.protocol`, protocol, SUPPORTED_PORT_PROTOCOLS));
  }

  errs.push(...validatePortNumOrName(`${path}.targetPort`, sp.targetPort));

  if (sp.appProtocol !== undefined) errs.push(...validateQualifiedName(`${path}.appProtocol`, sp.appProtocol));
  return errs;
}
