import { EVENTS_V1_EVENT_KIND, decodeEventsV1EventProtobuf } from '../events-v1-event-decoder';
import { eventsV1EventSchema } from '../events-v1-event-schema';
import { ObjectDecodeError } from '../object-decode-error';
import { BadRequestError } from '../../errors/domain-errors';
import { decodeEnvelope } from './kube-envelope';
import { decodeKubeObject, encodeKubeObject } from './kube-object-protobuf';
import { encodeMessage } from './proto-message-codec';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// events.k8s.io/v1 Event on the wire: the field numbers of k8s.io/api events/v1/generated.proto
// and an envelope naming events.k8s.io/v1, Event (client-go's events/v1 typed client).
describe('events.k8s.io/v1 Event in protobuf', () => {
  it('given an Event, when encoded, then each field carries its events/v1 number', () => {
    const bytes = hex(
      encodeMessage(eventsV1EventSchema, {
        eventTime: '1970-01-01T00:01:40.000001Z',
        series: { count: 2, lastObservedTime: null },
        reportingController: 'c',
        reportingInstance: 'i',
        action: 'a',
        reason: 'r',
        regarding: { name: 'web' },
        related: { name: 'n' },
        note: 'x',
        type: 'Normal',
        deprecatedCount: 3,
      }),
    );
    // eventTime 2 {seconds 100, nanos 1000}, series 3 {count 2, lastObservedTime 2 (zero: empty)}.
    expect(bytes).toContain('1205' + '0864' + '10e807');
    expect(bytes).toContain('1a04' + '0802' + '1200');
    for (const [no, value] of [
      ['22', 'c'],
      ['2a', 'i'],
      ['32', 'a'],
      ['3a', 'r'],
      ['52', 'x'],
    ]) {
      expect(bytes).toContain(no + '01' + Buffer.from(value).toString('hex'));
    }
    // regarding 8 and related 9 hold an ObjectReference (name is its field 3; Go writes every string of it).
    const reference = (name: string) => '0a00' + '1200' + '1a' + hex(Buffer.from([name.length])) + hex(Buffer.from(name)) + '2200' + '2a00' + '3200' + '3a00';
    expect(bytes).toContain('4211' + reference('web'));
    expect(bytes).toContain('4a0f' + reference('n'));
    expect(bytes).toContain('5a06' + hex(Buffer.from('Normal')));
    // deprecatedSource 12 (a value struct: always written), the zero deprecated times 13 and 14, deprecatedCount 15.
    expect(bytes.endsWith('6204' + '0a00' + '1200' + '6a00' + '7200' + '7803')).toBe(true);
  });

  it('given an events.k8s.io Event or EventList, when enveloped, then the envelope names events.k8s.io/v1 and the kind, and decodes back', () => {
    const event = encodeKubeObject('EventsV1Event', { metadata: { name: 'a' }, note: 'hello' });
    expect(decodeEnvelope(event)).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event' });
    expect(decodeKubeObject(event)).toMatchObject({ kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { name: 'a' }, note: 'hello', eventTime: null, deprecatedSource: {} });
    const list = encodeKubeObject('EventsV1EventList', { metadata: { resourceVersion: '5' }, items: [{ metadata: { name: 'a' }, reason: 'r' }] });
    expect(decodeEnvelope(list)).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'EventList' });
    expect(decodeKubeObject(list)).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1', items: [{ reason: 'r' }] });
    // core/v1's Event keeps its own layout: `message` (4), not `note`.
    expect(decodeKubeObject(encodeKubeObject('Event', { metadata: { name: 'a' }, message: 'hello' }))).toMatchObject({ apiVersion: 'v1', message: 'hello' });
  });

  it('given a core/v1 Event envelope, when decoded as an events.k8s.io/v1 request body, then the group-version mismatch', () => {
    const core = Buffer.from(encodeKubeObject('Event', { apiVersion: 'v1', metadata: { name: 'a' } }));
    expect(() => decodeEventsV1EventProtobuf(core, { fieldValidation: 'Strict' })).toThrow(BadRequestError);
    expect(() => decodeEventsV1EventProtobuf(core, { fieldValidation: 'Strict' })).toThrow('the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)');
    expect(EVENTS_V1_EVENT_KIND.convertible).toContainEqual({ group: '', version: 'v1' });
  });

  it('given bytes without the k8s prefix, when decoded, then the unrecognized-object error names Event', () => {
    expect(() => decodeEventsV1EventProtobuf(Buffer.from('{}'), { fieldValidation: 'Strict' })).toThrow(ObjectDecodeError);
    expect(() => decodeEventsV1EventProtobuf(Buffer.from('{}'), { fieldValidation: 'Strict' })).toThrow(/^the object provided is unrecognized \(must be of type Event\)/);
  });
});
