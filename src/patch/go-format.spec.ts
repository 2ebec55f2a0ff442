import { goSprintS, goSprintV } from './go-format';
import { cloneTree, type JsonTree } from './json-tree';

describe('Go fmt rendering of decoded JSON', () => {
  it.each<[unknown, string]>([
    [{ status: 'True' }, 'map[status:True]'],
    [{ b: 1, a: 'x', $patch: 'delete' }, 'map[$patch:delete a:x b:1]'],
    [{ port: 80, nested: { z: true, y: null } }, 'map[nested:map[y:<nil> z:true] port:80]'],
    [[{ port: 443 }, { port: 80 }], '[map[port:443] map[port:80]]'],
    [[], '[]'],
    [{}, 'map[]'],
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [0.00001, '1e-05'],
    ['two words', 'two words'],
  ])('%%v of %j', (value, expected) => {
    expect(goSprintV(cloneTree(value))).toBe(expected);
  });

  it.each<[JsonTree, string]>([
    ['foo', 'foo'],
    [1, '%!s(int64=1)'],
    [1.5, '%!s(float64=1.5)'],
    [true, '%!s(bool=true)'],
    [null, '%!s(<nil>)'],
  ])('%%s of %j', (value, expected) => {
    expect(goSprintS(value)).toBe(expected);
  });
});
