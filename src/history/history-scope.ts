// Where a history path points: the cluster, a namespace, or one Service name in a namespace
// (every incarnation of that name; the uid filter picks one).
export interface HistoryScope {
  namespace?: string;
  name?: string;
}

export function scopeKey(resource: string, scope: HistoryScope): string {
  return JSON.stringify([resource, scope.namespace ?? null, scope.name ?? null]);
}
