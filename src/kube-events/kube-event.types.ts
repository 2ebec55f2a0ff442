// core/v1 Event, as svctrail serves it (field order of the Go struct).
export interface ObjectReference {
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  apiVersion: string;
  resourceVersion: string;
}

export interface KubeEvent {
  kind?: 'Event';
  apiVersion?: 'v1';
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp: string };
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: 'Normal' | 'Warning';
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

export const EVENT_SOURCE = 'svctrail';
