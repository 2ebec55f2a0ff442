// svctrail's request authenticator, in kube-apiserver's union order: a verified client
// certificate, then a bearer token from the token file, then (with --authentication-kubeconfig)
// the cluster's TokenReview of a token svctrail does not know; the first that succeeds wins, and
// the AuthenticatedGroupAdder appends system:authenticated to whoever it is. The TokenReview
// endpoint asks the same chain with the token alone, as kube-apiserver's does.
import { authenticateCertificate, bearerTokenOf, type RequestCredentials, withAuthenticatedGroup } from './authenticator';
import type { TokenIndex } from './token-index';
import type { UserInfo } from './user-info';

/** A token authenticator's answer (authenticator.Response, ok, err). */
export interface TokenAuthentication {
  user?: UserInfo;
  /** The audiences the token is good for, of those asked (only when some were asked). */
  audiences?: string[];
  /** Why the token could not be judged (a TokenReview that failed, or said why it refused). */
  error?: string;
}

/** The cluster's TokenReview (delegated-token-authenticator.ts). */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences: readonly string[]): Promise<TokenAuthentication>;
}

export class RequestAuthenticator {
  constructor(
    private readonly tokens: () => TokenIndex,
    private readonly delegate?: TokenAuthenticator,
  ) {}

  /** The user, or null for a 401 (or anonymous where that is allowed). */
  async authenticate(request: RequestCredentials): Promise<UserInfo | null> {
    const certified = authenticateCertificate(request);
    if (certified) return withAuthenticatedGroup(certified);
    const token = bearerTokenOf(request.authorizationHeader);
    if (token === undefined) return null;
    const { user } = await this.authenticateToken(token, []);
    return user ?? null;
  }

  /**
   * The token alone. svctrail's own tokens have no audience (kube-apiserver without
   * --api-audiences: WrapAudienceAgnosticToken with none), so a review that asks for audiences
   * finds them unauthenticated; the cluster judges its tokens' audiences itself.
   */
  async authenticateToken(token: string, audiences: readonly string[]): Promise<TokenAuthentication> {
    if (audiences.length === 0) {
      const own = this.tokens().lookup(token);
      if (own) return { user: withAuthenticatedGroup(own) };
    }
    if (!this.delegate) return {};
    const remote = await this.delegate.authenticateToken(token, audiences);
    return remote.user ? { ...remote, user: withAuthenticatedGroup(remote.user) } : remote;
  }
}
