import { BadRequestError } from '../errors/domain-errors';
import { formatLabelSelector, matchesLabels, parseLabelSelector } from './label-selector';

const NAME_PART_ERR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector (labels.Parse)', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['app=web', 'app=web'],
    ['app==web', 'app==web'],
    ['app!=web', 'app!=web'],
    ['app = web', 'app=web'],
    ['app', 'app'],
    ['!app', '!app'],
    [' ! app ', '!app'],
    ['app in (b,a)', 'app in (a,b)'],
    ['app in (a, b , a)', 'app in (a,b)'],
    ['app notin (a)', 'app notin (a)'],
    ['app in ()', 'app in ()'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['app in (,a)', 'app in (,a)'],
    ['app in (a,)', 'app in (,a)'],
    ['app=', 'app='],
    ['app=,b', 'app=,b'],
    ['in in (in, notin)', 'in in (in,notin)'],
    ['tier=web,app=x', 'app=x,tier=web'],
    ['example.com/app=web', 'example.com/app=web'],
    ['n>5,m<10', 'm<10,n>5'],
  ])('%j → %j', (text, canonical) => {
    expect(formatLabelSelector(parseLabelSelector(text))).toBe(canonical);
  });

  it.each([
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['app:web', `unable to parse requirement: <nil>: Invalid value: "app:web": ${NAME_PART_ERR}`],
    ['*bar', `unable to parse requirement: <nil>: Invalid value: "*bar": ${NAME_PART_ERR}`],
    [
      'a/b/c=x',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [
      'Example.com/a=x',
      "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
    ['/a', `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`],
    ['app=-x', `unable to parse requirement: values[0][app]: Invalid value: "-x": ${VALUE_ERR}`],
    ['app in (-x,y_)', `unable to parse requirement: [values[0][app]: Invalid value: "-x": ${VALUE_ERR}, values[1][app]: Invalid value: "y_": ${VALUE_ERR}]`],
    [`app=${'a'.repeat(64)}`, `unable to parse requirement: values[0][app]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`],
    ['n>abc', `unable to parse requirement: values[0]: Invalid value: "abc": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['n>-1', `unable to parse requirement: values[0][n]: Invalid value: "-1": ${VALUE_ERR}`],
  ])('rejects %j', (text, message) => {
    let err: unknown;
    try {
      parseLabelSelector(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toBe(message);
  });
});

describe('matchesLabels (Requirement.Matches)', () => {
  const labels = { app: 'web', tier: 'front', n: '7', empty: '' };
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['missing=', false],
    ['empty=', true],
    ['app in (db,web)', true],
    ['app in (db)', false],
    ['missing in (x)', false],
    ['app notin (db)', true],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['n>5', true],
    ['n>7', false],
    ['n<8', true],
    ['app>1', false],
    ['missing<1', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
  ])('%j → %s', (text, expected) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(expected);
  });

  it('treats undefined labels as an empty set', () => {
    expect(matchesLabels(parseLabelSelector('!app'), undefined)).toBe(true);
    expect(matchesLabels(parseLabelSelector('app'), undefined)).toBe(false);
  });
});
