/**
 * An exec credential plugin could not give credentials: it could not be started, failed, timed out
 * or printed no usable ExecCredential. Not a refusal of the kubeconfig: the plugin may work on
 * the next try (a login service that was down), so the mirror retries.
 */
export class ExecPluginError extends Error {
  constructor(
    readonly command: string,
    message: string,
    /** The exit code, when it exited. */
    readonly exitCode?: number,
  ) {
    super(message);
  }
}
