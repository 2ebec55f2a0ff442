import { renderBadValue } from '../errors/field-error';
import { GO_NULL, goOptionalString, goServicePortKey, goStringSlice, goTimeLiteral } from './bad-values';

describe('Go BadValue literals', () => {
  it.each<[string, unknown, string]>([
    ['nil pointer', GO_NULL, '"null"'],
    ['optional set', goOptionalString('SingleStack'), '"SingleStack"'],
    ['optional nil', goOptionalString(undefined), '"null"'],
    ['string slice', goStringSlice(['10.0.0.1', 'fd00::1']), '[]string{"10.0.0.1", "fd00::1"}'],
    ['empty slice', goStringSlice([]), '[]string{}'],
    ['nil slice', goStringSlice(undefined), '[]string(nil)'],
    ['named slice', goStringSlice(['IPv6'], '[]core.IPFamily'), '[]core.IPFamily{"IPv6"}'],
    [
      'service port key',
      goServicePortKey('UDP', 53),
      'core.ServicePort{Name:"", Protocol:"UDP", AppProtocol:(*string)(nil), Port:53, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ],
    ['time', goTimeLiteral('2025-01-02T03:04:05Z'), '2025-01-02 03:04:05 +0000 UTC'],
    ['time with offset', goTimeLiteral('2025-01-02T05:04:05+02:00'), '2025-01-02 03:04:05 +0000 UTC'],
    ['zero time', goTimeLiteral(undefined), '0001-01-01 00:00:00 +0000 UTC'],
  ])('%s', (_name, value, expected) => {
    expect(renderBadValue(value)).toBe(expected);
  });
});
