// The self-review kinds in protobuf: bodies captured from real kubectl 1.33 (`auth can-i`,
// `auth can-i --list`, `auth whoami`; a loopback stub recorded them) decode to the JSON view
// kubectl ≤ 1.31 sends for the same command and encode back to the very same bytes; the
// map[string]ExtraValue of UserInfo has gogo's layout.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { decodeReviewBody } from '../review-decoder';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema, userInfoSchema } from '../review-schema';
import { encodeStruct } from '../schema-encoder';
import { decodeKubeObject, encodeKubeObject } from './kube-object-protobuf';
import { decodeMessage, encodeMessage } from './proto-message-codec';

// kubectl 1.33.x, captured on the wire.
const CAN_I_GET_SERVICES =
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123a0a100a0012001a0022002a00320038004200121c0a1a0a016112036765741a0022002a08736572766963657332003a001a08080012001a0020001a002200';
const CAN_I_GET_METRICS =
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577122f0a100a0012001a0022002a003200380042001211120f0a082f6d65747269637312036765741a08080012001a0020001a002200';
const CAN_I_LIST =
  '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c6573526576696577121d0a100a0012001a0022002a0032003800420012030a01611a04180022001a002200';
const WHOAMI = '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200';

const ACCESS = { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview', schema: selfSubjectAccessReviewSchema };
const RULES = { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview', schema: selfSubjectRulesReviewSchema };
const WHO = { group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview', schema: selfSubjectReviewSchema };

describe('self reviews in protobuf', () => {
  it.each([
    [
      'can-i get services -n a',
      CAN_I_GET_SERVICES,
      ACCESS,
      '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"a","verb":"get","resource":"services"}},"status":{"allowed":false}}',
    ],
    [
      'can-i get /metrics',
      CAN_I_GET_METRICS,
      ACCESS,
      '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"nonResourceAttributes":{"path":"/metrics","verb":"get"}},"status":{"allowed":false}}',
    ],
    [
      'can-i --list -n a',
      CAN_I_LIST,
      RULES,
      '{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"namespace":"a"},"status":{"resourceRules":null,"nonResourceRules":null,"incomplete":false}}',
    ],
    ['whoami', WHOAMI, WHO, '{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null},"status":{"userInfo":{}}}'],
  ])("given kubectl 1.33 `auth %s`, when decoded, then it equals kubectl 1.27's JSON body for it and encodes back to the same bytes", (_name, body, target, json) => {
    const fromProtobuf = decodeReviewBody(Buffer.from(body, 'hex'), target, 'Strict');
    const fromJson = decodeReviewBody(json, target, 'Strict');
    expect(fromProtobuf).toEqual(fromJson);
    expect(Buffer.from(encodeKubeObject(target.kind as 'SelfSubjectAccessReview', fromProtobuf.object)).toString('hex')).toBe(body);
    expect(JSON.stringify(encodeStruct(target.schema, decodeKubeObject(Buffer.from(body, 'hex'))))).toBe(json);
  });

  it('given a review answer, when encoded, then the envelope names its group version', () => {
    const answer = {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {},
      status: { resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['services/status'] }], nonResourceRules: [], incomplete: false },
    };
    const decoded = decodeKubeObject(encodeKubeObject('SelfSubjectRulesReview', answer));
    expect(decoded).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['services/status'] }], nonResourceRules: null, incomplete: false },
    });
    const beta = decodeKubeObject(encodeKubeObject('SelfSubjectReview', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1beta1', status: { userInfo: { username: 'u' } } }));
    expect(beta.apiVersion).toBe('authentication.k8s.io/v1beta1');
  });

  it('given selector attributes (1.31+), when sent in protobuf, then they decode as their JSON does', () => {
    const json = JSON.stringify({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: {
        resourceAttributes: {
          verb: 'list',
          resource: 'services',
          fieldSelector: { requirements: [{ key: 'metadata.name', operator: 'In', values: ['web'] }] },
          labelSelector: { rawSelector: 'app=web,tier!=db' },
        },
      },
    });
    const fromJson = decodeReviewBody(json, ACCESS, 'Strict');
    const body = Buffer.from(encodeKubeObject('SelfSubjectAccessReview', fromJson.object));
    expect(decodeReviewBody(body, ACCESS, 'Strict')).toEqual(fromJson);
    expect((fromJson.object.spec as any).resourceAttributes.fieldSelector.requirements).toEqual([{ key: 'metadata.name', operator: 'In', values: ['web'] }]);
  });

  describe('UserInfo.extra, a map[string]ExtraValue', () => {
    const entry = (key: string, items: string[] | undefined) => {
      const w = new BinaryWriter();
      w.tag(1, WireType.LengthDelimited).string(key);
      if (items) {
        w.tag(2, WireType.LengthDelimited).fork();
        for (const item of items) w.tag(1, WireType.LengthDelimited).string(item);
        w.join();
      }
      return w.finish();
    };
    const userInfo = (entries: Uint8Array[]) => {
      const w = new BinaryWriter();
      w.tag(1, WireType.LengthDelimited).string('u');
      for (const e of entries) w.tag(4, WireType.LengthDelimited).bytes(e);
      return w.finish();
    };

    it('given entries, when encoded, then they are sorted by key, each value an ExtraValue message written even when empty', () => {
      const bytes = encodeMessage(userInfoSchema, { username: 'u', extra: { 'b.io/scopes': ['x', 'y'], 'a.io/empty': [], 'a.io/nil': null } });
      const expected = new BinaryWriter();
      expected.tag(1, WireType.LengthDelimited).string('u');
      expected.tag(2, WireType.LengthDelimited).string('');
      for (const [key, items] of [
        ['a.io/empty', []],
        ['a.io/nil', []],
        ['b.io/scopes', ['x', 'y']],
      ] as const) {
        expected.tag(4, WireType.LengthDelimited).bytes(entry(key, [...items]));
      }
      expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(expected.finish()).toString('hex'));
    });

    it('given entries on the wire, when decoded, then an empty or absent value is a nil slice (null) and a repeated key replaces the earlier one', () => {
      const decoded = decodeMessage(userInfoSchema, userInfo([entry('k', ['1']), entry('empty', []), entry('absent', undefined), entry('k', ['2', '3'])]));
      expect(decoded).toEqual({ username: 'u', extra: { k: ['2', '3'], empty: null, absent: null } });
      expect(Object.keys(decoded.extra as object)).toEqual(['absent', 'empty', 'k']);
    });

    it("given JSON, when decoded, then values are string lists, null stays null and a wrong type is Go's error", () => {
      const ok = decodeReviewBody('{"status":{"userInfo":{"extra":{"b":["x"],"a":null}}}}', WHO, 'Strict');
      expect(ok.object.status).toEqual({ userInfo: { extra: { a: null, b: ['x'] } } });
      expect(() => decodeReviewBody('{"status":{"userInfo":{"extra":{"a":"x"}}}}', WHO, 'Strict')).toThrow(
        'SelfSubjectReview in version "v1" cannot be handled as a SelfSubjectReview: json: cannot unmarshal string into Go struct field UserInfo.status.userInfo.extra of type v1.ExtraValue',
      );
      expect(() => decodeReviewBody('{"status":{"userInfo":{"extra":[]}}}', WHO, 'Strict')).toThrow(
        'json: cannot unmarshal array into Go struct field UserInfo.status.userInfo.extra of type map[string]v1.ExtraValue',
      );
    });
  });
});
