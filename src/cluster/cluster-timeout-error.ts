/** The cluster did not answer, or stopped sending, within the time the caller allowed. */
export class ClusterTimeoutError extends Error {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}
