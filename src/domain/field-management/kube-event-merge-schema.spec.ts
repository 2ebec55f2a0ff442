import { fieldPathToString } from './field-path';
import { CORE_EVENT_MERGE_TYPE } from './kube-event-merge-schema';
import { childType, type MergeType } from './merge-type';
import { compareObjects } from './object-comparison';
import { toFieldSet } from './to-field-set';

/** The merge strategy at a path (`[]` is a list's item), in the words of the OpenAPI markers. */
function strategyAt(path: string): string {
  const type = path.split('.').reduce<MergeType>((t, name) => (name === '[]' && t.kind === 'list' ? t.element : childType(t, name)), CORE_EVENT_MERGE_TYPE);
  switch (type.kind) {
    case 'struct':
    case 'map':
      return `${type.atomic ? 'atomic' : 'granular'} ${type.kind}`;
    case 'list':
      return type.listType === 'map' ? `list-map [${type.keys.join(', ')}]` : `${type.listType} list`;
    default:
      return type.kind;
  }
}

const paths = (c: ReturnType<typeof compareObjects>) => ({
  added: c.added.paths().map(fieldPathToString),
  modified: c.modified.paths().map(fieldPathToString),
  removed: c.removed.paths().map(fieldPathToString),
});

describe('the core/v1 Event merge schema (codec/event-schema.ts + kube OpenAPI markers)', () => {
  it.each([
    // ObjectReference is +structType=atomic (kubernetes/api core/v1/types.go): owned whole.
    ['involvedObject', 'atomic struct'],
    ['related', 'atomic struct'],
    // EventSource and EventSeries carry no marker: granular.
    ['source', 'granular struct'],
    ['series', 'granular struct'],
    ['source.component', 'scalar'],
    ['firstTimestamp', 'scalar'],
    ['eventTime', 'scalar'],
    ['reportingInstance', 'scalar'],
    // ObjectMeta's markers, the same as a Service's.
    ['metadata', 'granular struct'],
    ['metadata.labels', 'granular map'],
    ['metadata.finalizers', 'set list'],
    ['metadata.ownerReferences', 'list-map [uid]'],
    ['metadata.ownerReferences.[]', 'atomic struct'],
    ['metadata.ownerReferences.[].uid', 'scalar'],
    ['metadata.managedFields', 'atomic list'],
    // Outside the schema: deduced by the value's shape.
    ['spec', 'deduced'],
  ])('given the Event schema, when %s is looked up, then it merges as a %s', (path, strategy) => {
    expect(strategyAt(path)).toBe(strategy);
  });

  it.each([
    ['a changed involvedObject.resourceVersion', { involvedObject: { kind: 'Service', name: 'web', resourceVersion: '2' } }, { added: [], modified: ['.involvedObject'], removed: [] }],
    ['a new source.host', { source: { component: 'c', host: 'node-1' } }, { added: ['.source.host'], modified: [], removed: [] }],
    ['a new related object', { related: { kind: 'Pod', name: 'p' } }, { added: ['.related'], modified: [], removed: [] }],
  ])('given a recorded Event, when it is compared with one with %s, then the change is at the owned paths', (_, change, expected) => {
    const live = { involvedObject: { kind: 'Service', name: 'web', resourceVersion: '1' }, source: { component: 'c' }, count: 1 };
    expect(paths(compareObjects(live, { ...live, ...change }, CORE_EVENT_MERGE_TYPE))).toEqual(expected);
  });

  it('given an applied Event naming part of involvedObject, when its field set is taken, then involvedObject is one member, source per field', () => {
    const set = toFieldSet({ involvedObject: { kind: 'Service', name: 'web' }, source: { component: 'c' }, message: 'm' }, CORE_EVENT_MERGE_TYPE);
    expect(set.paths().map(fieldPathToString)).toEqual(['.involvedObject', '.message', '.source.component']);
  });
});
