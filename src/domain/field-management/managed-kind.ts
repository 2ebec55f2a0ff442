// What the engine must know of a kind, as one API version serves it: kube builds one field
// manager per resource and group version (apiserver endpoints/installer.go,
// fieldmanager.NewDefaultFieldManager), from that version's OpenAPI types, its strategy's reset
// fields and the version the entries are recorded under.
import { type ObjectMeta } from '../service.types';
import { type FieldSet } from './field-set';
import { type MergeType } from './merge-type';

export type Subresource = '' | 'status';

/** Any object with ObjectMeta, in its stored form. */
export interface ManagedObject {
  metadata?: ObjectMeta;
}

export interface ManagedKind<T extends ManagedObject> {
  /** The request's group ('' for core), version and kind: what an applied configuration must name. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** `version` or `group/version`: the apiVersion of the entries this endpoint records. */
  readonly apiVersion: string;
  /** This version's merge schema. */
  readonly mergeType: MergeType;
  /**
   * The object as this version serves it, in Go's encoding (ToUnstructured of the typed object:
   * omitempty applied, zero times as null), without managedFields; undefined gives the empty
   * object a create starts from (scope.Creater.New).
   */
  comparable(object: T | undefined): Record<string, unknown>;
  /** The stored form's canonical encoding, managedFields included: the no-op check compares it. */
  encode(object: T): T;
  /** The strategy's GetResetFields for the endpoint: never owned, never compared. */
  resetFields(subresource: Subresource): FieldSet;
  /** stripmeta.go's set. */
  readonly untrackedFields: FieldSet;
  /**
   * What becomes of entries recorded under another apiVersion. kube converts the objects to that
   * version to compare them, and drops the manager when this endpoint's type converter cannot
   * type it (merge/update.go, versionconverter.go IsMissingVersionError). `comparedAsOwn` keeps
   * the engine's single-version model (Services: README, knowingly not covered).
   */
  readonly entriesOfOtherVersions: 'dropped' | 'comparedAsOwn';
}
