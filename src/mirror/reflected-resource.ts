// What the reflector needs to know of the resource it records (Services, or Events about
// Services): where to list and watch it, how to read the source's objects, what the store holds,
// where its watch resumes and who records what it observes. The reflector's algorithm (list,
// watch, resume, relist on 410) is the same for every resource.
import type { MirroredResource, MirrorSource } from '../store/ports/mirror-source-store';
import type { ObservationRecorder } from './observation';

export interface ReflectedResource<T> {
  /** Names its resume point, its metrics and its status. */
  readonly resource: MirroredResource;
  /** What it records, for log lines ("Services", "Events about Services"). */
  readonly description: string;
  /** The collection's path at the source, every namespace ("/api/v1/services"). */
  readonly path: string;
  /** The field selector every LIST and WATCH of it carries, if any. */
  readonly fieldSelector?: string;
  readonly recorder: ObservationRecorder<T>;
  /** Where its watch resumes, as stored (null: list first). */
  storedPosition(source: MirrorSource | null): string | null;
  /**
   * The source's object in svctrail's stored form (without the source's resourceVersion, which
   * comes back beside it). Throws when the value cannot be read as this resource at all.
   */
  decode(raw: unknown): { object: T; resourceVersion?: string };
  keyOf(object: T): { namespace: string; name: string };
  /** namespace/name of every live object of this resource the store holds. */
  recordedNames(): Promise<string[]>;
}
