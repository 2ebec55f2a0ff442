// Golden bytes taken from real kubectl at test time: kubectl 1.32+ sends `auth can-i`,
// `auth can-i --list` and `auth whoami` reviews in protobuf. A loopback stub records each body
// (and echoes it back, as the review endpoints answer the review); decoding it and encoding it
// again must give the very same bytes, and it must decode to the same review as the JSON body
// kubectl ≤ 1.31 sends for the same command.
import { decodeEnvelope } from '../../src/domain/codec/protobuf/kube-envelope';
import { encodeKubeObject, type ProtobufKind } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { decodeReviewBody, type ReviewTarget } from '../../src/domain/codec/review-decoder';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema } from '../../src/domain/codec/review-schema';
import { KubectlCaptureStub } from '../helpers/kubectl-capture-stub';
import { kubectlMatrix, kubectlVersion } from '../helpers/kubectl';

const minor = (binary: string) => Number(/^v1\.(\d+)\./.exec(kubectlVersion(binary))?.[1] ?? 0);
const binaries = kubectlMatrix();
const protobufSenders = binaries.filter((b) => minor(b) >= 32);
// 1.28–1.31: JSON, and whoami already asks authentication.k8s.io/v1.
const jsonSender = binaries.find((b) => minor(b) === 31) ?? binaries.find((b) => minor(b) >= 28 && minor(b) < 32);
if (!protobufSenders.length || !jsonSender) {
  process.stdout.write(`SKIPPED kubectl review golden bytes: need kubectl >= 1.32 and 1.28–1.31 (found: ${binaries.map(kubectlVersion).join(', ') || 'none'})\n`);
}
const describeIfKubectl = protobufSenders.length && jsonSender ? describe : describe.skip;

const TARGETS: Record<string, ReviewTarget> = {
  selfsubjectaccessreviews: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview', schema: selfSubjectAccessReviewSchema },
  selfsubjectrulesreviews: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview', schema: selfSubjectRulesReviewSchema },
  selfsubjectreviews: { group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview', schema: selfSubjectReviewSchema },
};

const COMMANDS: string[][] = [
  ['auth', 'can-i', 'get', 'services', '-n', 'team-a'],
  ['auth', 'can-i', 'patch', 'services', '--subresource=status', '-n', 'team-a'],
  ['auth', 'can-i', 'delete', 'services/web', '-n', 'team-a'],
  ['auth', 'can-i', 'get', '/metrics'],
  ['auth', 'can-i', '--list', '-n', 'team-a'],
  ['auth', 'whoami'],
];

describeIfKubectl('kubectl review bodies: golden bytes captured from real kubectl', () => {
  let stub: KubectlCaptureStub;
  beforeAll(async () => {
    stub = await KubectlCaptureStub.start();
  });
  afterAll(async () => stub.stop());
  const run = (binary: string, args: string[]) => stub.capture(binary, args);

  it.each(protobufSenders.map((b) => [kubectlVersion(b), b]))('%s: decode → encode gives the same bytes, and the same review as the JSON body', async (_v, binary) => {
    for (const args of COMMANDS) {
      const pb = await run(binary, args);
      const target = TARGETS[pb.path.split('/').pop()!];
      expect({ args, contentType: pb.contentType }).toEqual({ args, contentType: 'application/vnd.kubernetes.protobuf' });
      expect(decodeEnvelope(pb.body)).toMatchObject({ apiVersion: `${target.group}/${target.version}`, kind: target.kind });
      const fromProtobuf = decodeReviewBody(pb.body, target, 'Strict');
      expect(Buffer.from(encodeKubeObject(target.kind as ProtobufKind, fromProtobuf.object)).equals(pb.body)).toBe(true);

      const json = await run(jsonSender!, args);
      expect(json.contentType).toBe('application/json');
      expect(json.path).toBe(pb.path);
      expect(fromProtobuf).toEqual(decodeReviewBody(json.body.toString('utf8'), target, 'Strict'));
    }
  });
});
