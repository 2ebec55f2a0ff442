// Behaves like a client-go >= 0.32 typed clientset (and controller-runtime's typed client) on
// core/v1: protobuf request bodies, `Accept: application/vnd.kubernetes.protobuf,application/json`,
// and the response decoded by its Content-Type. Used to compare every answer with the JSON path.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { decodeWatchFrames } from '../../src/domain/codec/protobuf/kube-envelope';
import { decodeKubeObject, encodeKubeObject, type ProtobufKind } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { type HttpsClient, type RawResponse } from './https-client';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const TYPED_CLIENT_ACCEPT = `${PROTOBUF},application/json`;

export interface TypedAnswer {
  status: number;
  contentType: string;
  /** The decoded object: from protobuf when the server answered protobuf, else from JSON. */
  object: any;
  raw: RawResponse;
}

export function protobufBody(kind: ProtobufKind, object: object): Buffer {
  return Buffer.from(encodeKubeObject(kind, object));
}

function decoded(raw: RawResponse): TypedAnswer {
  const contentType = String(raw.headers['content-type'] ?? '');
  const object = contentType.startsWith(PROTOBUF) ? decodeKubeObject(raw.bytes) : raw.json;
  return { status: raw.status, contentType, object, raw };
}

export class TypedClient {
  constructor(private readonly client: HttpsClient) {}

  private async call(method: string, path: string, body?: Buffer): Promise<TypedAnswer> {
    return decoded(await this.client.request(method, path, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT }));
  }

  create(path: string, service: object) {
    return this.call('POST', path, protobufBody('Service', service));
  }
  get(path: string) {
    return this.call('GET', path);
  }
  update(path: string, service: object) {
    return this.call('PUT', path, protobufBody('Service', service));
  }
  delete(path: string, options?: object) {
    return this.call('DELETE', path, options ? protobufBody('DeleteOptions', options) : undefined);
  }

  /** A protobuf watch: frames decoded one by one as they arrive. */
  async watch(path: string): Promise<ProtobufWatch> {
    const { response, request } = await this.client.openStream(path, TYPED_CLIENT_ACCEPT);
    return new ProtobufWatch(response, request);
  }
}

export interface DecodedWatchEvent {
  type: string;
  object: any;
}

export class ProtobufWatch {
  private pending: Buffer = Buffer.alloc(0);
  private readonly events: DecodedWatchEvent[] = [];
  private waiting?: () => void;
  ended = false;

  constructor(
    readonly response: IncomingMessage,
    private readonly request: ClientRequest,
  ) {
    response.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      const { events, rest } = decodeWatchFrames(this.pending);
      this.pending = Buffer.from(rest);
      for (const e of events) this.events.push({ type: e.type, object: decodeKubeObject(e.object) });
      this.waiting?.();
    });
    const end = () => {
      this.ended = true;
      this.waiting?.();
    };
    response.on('end', end);
    response.on('close', end);
  }

  get contentType(): string {
    return String(this.response.headers['content-type']);
  }

  /** The next event; waits as long as it takes (the jest timeout bounds it), undefined at the end. */
  async next(): Promise<DecodedWatchEvent | undefined> {
    while (this.events.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.events.shift();
  }

  close(): void {
    this.request.destroy();
  }
}
