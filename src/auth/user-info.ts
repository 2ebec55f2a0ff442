// The authenticated identity, shaped like k8s.io/apiserver user.Info (name, uid, groups, extra).
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  /** What the front proxy said of the user beyond its groups (X-Remote-Extra-*), by lowercased key. */
  extra?: Record<string, string[]>;
}

/** Added to every authenticated user (k8s.io/apiserver pkg/authentication/user). */
export const ALL_AUTHENTICATED_GROUP = 'system:authenticated';
export const ALL_UNAUTHENTICATED_GROUP = 'system:unauthenticated';
/** Members bypass authorization in kube-apiserver's RBAC setup. */
export const SYSTEM_MASTERS_GROUP = 'system:masters';
