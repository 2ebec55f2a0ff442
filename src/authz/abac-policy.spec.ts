import { formatPolicyLine, parsePolicy, PolicyFileError } from './abac-policy';

const V1 = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

describe('parsePolicy (abac NewFromFile)', () => {
  it('an empty file has no rules', () => {
    expect(parsePolicy('', 'p')).toEqual({ source: 'p', rules: [], warnings: [] });
  });

  it('skips blank lines and (indented) comments, reads CRLF files and a last line without newline', () => {
    const text = `\n   # comment after a blank line\r\n${V1({ user: 'bob', readonly: true, resource: 'services', namespace: 'a' })}\r\n\t\n${V1({ group: 'ops', nonResourcePath: '/metrics' })}`;
    const policy = parsePolicy(text, 'p');
    expect(policy.rules).toEqual([
      { user: 'bob', group: '', readonly: true, apiGroup: '', resource: 'services', namespace: 'a', nonResourcePath: '', line: 3 },
      { user: '', group: 'ops', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '/metrics', line: 5 },
    ]);
    expect(policy.warnings).toEqual([]);
  });

  it('v1beta1: a "*" user or group becomes group system:authenticated', () => {
    const { rules } = parsePolicy(`${V1({ user: '*', readonly: true, nonResourcePath: '/api' })}\n${V1({ group: '*', resource: 'events', namespace: '*' })}\n`, 'p');
    expect(rules.map((r) => [r.user, r.group])).toEqual([
      ['', 'system:authenticated'],
      ['', 'system:authenticated'],
    ]);
  });

  it('v0 (unversioned) lines convert as upstream and draw a warning', () => {
    const text = ['{"readonly": true, "resource": "events"}', '{"user":"alice", "namespace": "projectCaribou"}', '{"user":"admin"}', '{"user":"*","resource":"pods"}'].join('\n');
    const policy = parsePolicy(text, 'p');
    expect(policy.rules.map(({ line: _line, ...rule }) => rule)).toEqual([
      { user: '', group: 'system:authenticated', readonly: true, apiGroup: '*', resource: 'events', namespace: '*', nonResourcePath: '' },
      { user: 'alice', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: 'projectCaribou', nonResourcePath: '' },
      { user: 'admin', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' },
      { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', resource: 'pods', namespace: '*', nonResourcePath: '' },
    ]);
    expect(policy.warnings).toEqual(['Policy file p contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.']);
  });

  it('an explicit v0 apiVersion is not "unversioned"', () => {
    const policy = parsePolicy('{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"a"}', 'p');
    expect(policy.rules[0]).toMatchObject({ user: 'a', resource: '*', namespace: '*' });
    expect(policy.warnings).toEqual([]);
  });

  it('null fields read as absent, as Go decodes them', () => {
    expect(parsePolicy(V1({ user: 'a', readonly: null, resource: null }), 'p').rules[0]).toMatchObject({ readonly: false, resource: '' });
  });

  it('warns about a line without user or group (it matches no one)', () => {
    expect(parsePolicy(V1({ resource: '*' }), 'p').warnings).toEqual(['policy file p, line 1: no user or group, so it matches no one']);
  });

  it.each([
    ['{"user":', 'Unexpected end of JSON input'],
    ['["user"]', 'a policy line must be a JSON object'],
    [V1({ user: 'bob', namepsace: 'a' }), 'unknown field "spec.namepsace"'],
    ['{"user":"bob","namepsace":"a"}', 'unknown field "namepsace"'],
    ['{"user":"bob","apiGroup":"x"}', 'unknown field "apiGroup"'],
    [V1({ user: 'bob', readonly: 'true' }), 'spec.readonly must be a boolean, got "true"'],
    [V1({ user: 7 }), 'spec.user must be a string, got 7'],
    ['{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Rule","spec":{}}', 'no kind "Rule" is registered for version "abac.authorization.kubernetes.io/v1beta1"'],
    ['{"apiVersion":"v1","kind":"Policy","spec":{}}', 'no kind "Policy" is registered for version "v1"'],
    ['{"user":"scheduler","kind":"pods"}', 'no kind "pods" is registered for version ""'],
    [`{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":[]}`, 'spec must be a JSON object'],
  ])('rejects %s naming the line', (line, reason) => {
    const text = `# header\n${V1({ user: 'ok' })}\n${line}\n`;
    expect(() => parsePolicy(text, '/data/policy.jsonl')).toThrow(PolicyFileError);
    expect(() => parsePolicy(text, '/data/policy.jsonl')).toThrow(`error reading policy file /data/policy.jsonl, line 3: ${line}: ${reason}`);
  });
});

describe('formatPolicyLine', () => {
  it('writes v1beta1 with the Go field order and omitempty', () => {
    expect(formatPolicyLine({ namespace: 'a', resource: 'services/status', apiGroup: '', readonly: false, user: 'bob' })).toBe(
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","resource":"services/status","namespace":"a"}}\n',
    );
  });

  it('round-trips through parsePolicy', () => {
    const spec = { user: 'bob', group: 'g', readonly: true, apiGroup: '*', resource: '*', namespace: 'a', nonResourcePath: '/x/*' };
    expect(parsePolicy(formatPolicyLine(spec), 'p').rules[0]).toEqual({ ...spec, line: 1 });
  });
});
