// How a watch stream puts events on the wire, chosen per watcher from its Accept header:
// newline-delimited JSON (`{"type":…,"object":…}`, served as plain application/json as
// kube-apiserver does), or protobuf frames (a 4-byte length, then a WatchEvent whose object
// is a full `k8s\0` envelope: the watched kind, or a Status for ERROR).
import { encodeWatchFrame } from '../domain/codec/protobuf/kube-envelope';
import { encodeKubeObject, type ProtobufKind } from '../domain/codec/protobuf/kube-object-protobuf';
import { storedJsonOf } from '../domain/codec/stored-object-json';

export interface WatchWire {
  readonly contentType: string;
  frame(type: string, object: unknown): string | Uint8Array;
}

export const JSON_WATCH_WIRE: WatchWire = {
  contentType: 'application/json',
  frame: (type, object) => {
    const json = storedJsonOf(object);
    return json === undefined ? `${JSON.stringify({ type, object })}\n` : `{"type":${JSON.stringify(type)},"object":${json}}\n`;
  },
};

const protobufWires = new Map<ProtobufKind, WatchWire>();

/** One shared wire per kind, so watchers of a kind share encoded frames. */
export function protobufWatchWire(kind: ProtobufKind): WatchWire {
  let wire = protobufWires.get(kind);
  if (!wire) {
    wire = {
      contentType: 'application/vnd.kubernetes.protobuf;stream=watch',
      frame: (type, object) => encodeWatchFrame(type, encodeKubeObject(type === 'ERROR' ? 'Status' : kind, object as object)),
    };
    protobufWires.set(kind, wire);
  }
  return wire;
}
