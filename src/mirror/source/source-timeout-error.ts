/** The source did not answer, or stopped sending, within the time the caller allowed. */
export class SourceTimeoutError extends Error {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}
