import { changeDiffs, diffLines, FOLD_CHARS, folded, type PatchOp } from './diff-lines';

const service = (ip: string, ready: string) => ({
  metadata: { name: 'web', namespace: 'team-a', resourceVersion: '5', labels: { app: 'web' } },
  status: { loadBalancer: { ingress: [{ ip }] }, conditions: [{ type: 'Ready', status: ready }] },
});

describe('diffLines', () => {
  it('given the object before a write, when a value is replaced, then the line shows the old value and the new one', () => {
    const patch: PatchOp[] = [
      { op: 'replace', path: '/metadata/resourceVersion', value: '6' },
      { op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '203.0.113.8' },
    ];
    expect(diffLines(patch, { object: service('203.0.113.7', 'True') })).toEqual([{ sign: '~', path: '/status/loadBalancer/ingress/0/ip', old: '"203.0.113.7"', value: '"203.0.113.8"' }]);
  });

  it('given the object before a write, when a member is removed, then the line shows what was removed', () => {
    expect(diffLines([{ op: 'remove', path: '/metadata/labels/app' }], { object: service('203.0.113.7', 'True') })).toEqual([{ sign: '-', path: '/metadata/labels/app', value: '', old: '"web"' }]);
  });

  it('given the object before a write, when a member is added, then the line is an addition with no old value', () => {
    expect(diffLines([{ op: 'add', path: '/metadata/labels/tier', value: 'front' }], { object: service('203.0.113.7', 'True') })).toEqual([
      { sign: '+', path: '/metadata/labels/tier', value: '"front"' },
    ]);
  });

  it('given an add into an array, when diffed, then it is an insertion, not a replacement of the element it shifts', () => {
    const lines = diffLines([{ op: 'add', path: '/status/conditions/0', value: { type: 'Serving', status: 'True' } }], { object: service('203.0.113.7', 'True') });
    expect(lines).toEqual([{ sign: '+', path: '/status/conditions/0', value: '{"type":"Serving","status":"True"}' }]);
  });

  it('given no object before the write, when diffed, then new values only (as the patch holds them)', () => {
    expect(diffLines([{ op: 'replace', path: '/status/conditions/0/status', value: 'False' }])).toEqual([{ sign: '~', path: '/status/conditions/0/status', value: '"False"' }]);
  });

  it('given a create and a delete, when diffed, then each is one line in words', () => {
    expect(diffLines([{ op: 'add', path: '', value: service('203.0.113.7', 'True') }], { object: null })).toEqual([
      expect.objectContaining({ sign: '+', path: '/', note: expect.stringContaining('created') }),
    ]);
    expect(diffLines([{ op: 'replace', path: '', value: null }], { object: service('203.0.113.7', 'True') })).toEqual([
      expect.objectContaining({ sign: '-', path: '/', note: 'the Service was deleted' }),
    ]);
  });

  it('given pointer escapes in a path, when diffed, then the old value is found under the unescaped key', () => {
    const before = { object: { metadata: { annotations: { 'example.com/owner~team': 'a' } } } };
    expect(diffLines([{ op: 'replace', path: '/metadata/annotations/example.com~1owner~0team', value: 'b' }], before)).toEqual([
      { sign: '~', path: '/metadata/annotations/example.com~1owner~0team', old: '"a"', value: '"b"' },
    ]);
  });
});

describe('changeDiffs', () => {
  it('given several writes, when diffed in order, then each old value is what the write before set', () => {
    const diffs = changeDiffs(
      [
        [{ op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '203.0.113.8' }],
        [{ op: 'replace', path: '/status/conditions/0/status', value: 'False' }],
        [{ op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '203.0.113.9' }],
      ],
      { object: service('203.0.113.7', 'True') },
    );
    expect(diffs.map((lines) => lines.map((l) => `${l.old} → ${l.value}`))).toEqual([['"203.0.113.7" → "203.0.113.8"'], ['"True" → "False"'], ['"203.0.113.8" → "203.0.113.9"']]);
  });

  it('given a delete and a re-create between writes, when diffed, then the new incarnation starts from its created object', () => {
    const diffs = changeDiffs(
      [[{ op: 'replace', path: '', value: null }], [{ op: 'add', path: '', value: service('198.51.100.1', 'False') }], [{ op: 'replace', path: '/status/conditions/0/status', value: 'True' }]],
      { object: service('203.0.113.7', 'True') },
    );
    expect(diffs[2]).toEqual([{ sign: '~', path: '/status/conditions/0/status', old: '"False"', value: '"True"' }]);
  });

  it('given array operations applied in sequence, when diffed, then each reads the array as the operations before it left it', () => {
    const before = { object: { spec: { ports: [{ port: 80 }, { port: 443 }, { port: 8080 }] } } };
    const diffs = changeDiffs(
      [
        [
          { op: 'remove', path: '/spec/ports/2' },
          { op: 'remove', path: '/spec/ports/1' },
        ],
        [{ op: 'add', path: '/spec/ports/1', value: { port: 9090 } }],
        [{ op: 'replace', path: '/spec/ports/1/port', value: 9091 }],
      ],
      before,
    );
    expect(diffs.map((lines) => lines.map((l) => [l.sign, l.old ?? '', l.value]))).toEqual([
      [
        ['-', '{"port":8080}', ''],
        ['-', '{"port":443}', ''],
      ],
      [['+', '', '{"port":9090}']],
      [['~', '9090', '9091']],
    ]);
  });

  it('given a patch that does not apply to the known object, when diffed, then later writes show new values only', () => {
    const diffs = changeDiffs([[{ op: 'remove', path: '/status/nothing/here' }], [{ op: 'replace', path: '/status/conditions/0/status', value: 'False' }]], { object: service('203.0.113.7', 'True') });
    expect(diffs[1]).toEqual([{ sign: '~', path: '/status/conditions/0/status', value: '"False"' }]);
  });

  it('given the patches, when diffed, then the object passed in is left as it was', () => {
    const object = service('203.0.113.7', 'True');
    changeDiffs([[{ op: 'replace', path: '/status/loadBalancer/ingress/0/ip', value: '203.0.113.8' }]], { object });
    expect(object.status.loadBalancer.ingress[0].ip).toBe('203.0.113.7');
  });
});

describe('folded', () => {
  it('given a short value, when folded, then it is whole', () => {
    expect(folded('"203.0.113.7"')).toEqual({ head: '"203.0.113.7"', complete: true });
  });

  it('given a long value, when folded, then its first characters with an ellipsis', () => {
    const long = JSON.stringify('x'.repeat(500));
    expect(folded(long)).toEqual({ head: `${long.slice(0, FOLD_CHARS)}…`, complete: false });
  });
});
