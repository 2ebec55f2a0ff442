// BadValues that kube-apiserver v1.32 prints in Go `%#v` syntax
// (k8s.io/apimachinery pkg/util/validation/field/errors.go ErrorBody: nil and nil pointers become
// the *string* "null", which is then %q-quoted; everything that is not a plain string, number or
// bool, nor a fmt.Stringer, is printed with %#v).
import { GoLiteral, goQuote, goSlice } from '../errors/field-error';

/** A nil pointer or nil interface BadValue: ErrorBody substitutes "null" and quotes it. */
export const GO_NULL = new GoLiteral('"null"');

/** A Go string slice (`[]string{"a"}`, `[]core.IPFamily{"IPv6"}`); undefined is the nil slice. */
export function goStringSlice(values: readonly string[] | undefined, typeName = '[]string'): GoLiteral {
  return values === undefined ? new GoLiteral(`${typeName}(nil)`) : goSlice(values, typeName);
}

/** A `*string`-like optional value: dereferenced when set, `"null"` when nil. */
export function goOptionalString(value: string | undefined): string | GoLiteral {
  return value === undefined ? GO_NULL : value;
}

/**
 * The (protocol, port) key of ValidateService's duplicate-port check: upstream builds
 * `core.ServicePort{Protocol: p.Protocol, Port: p.Port}`, so every other field is zero.
 */
export function goServicePortKey(protocol: string, port: number): GoLiteral {
  return new GoLiteral(
    `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, ` + 'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  );
}

const GO_MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

/**
 * A metav1.Time BadValue: it is a fmt.Stringer (embedded time.Time), so ErrorBody prints
 * t.String() unquoted: `2006-01-02 15:04:05 +0000 UTC` (apiserver runs in UTC); the zero time
 * for an absent value.
 */
export function goTimeLiteral(value: string | null | undefined): GoLiteral {
  const ms = value ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) return new GoLiteral('0001-01-01 00:00:00 +0000 UTC');
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const frac = d.getUTCMilliseconds() ? `.${String(d.getUTCMilliseconds()).padStart(3, '0').replace(/0+$/, '')}` : '';
  const text =
    `${String(d.getUTCFullYear()).padStart(4, '0')}-${GO_MONTHS[d.getUTCMonth()]}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`;
  return new GoLiteral(text);
}
