// A non-2xx answer of the source API server, with the Kubernetes Status it sent when it sent one.
export interface SourceStatus {
  code?: number;
  reason?: string;
  message?: string;
}

export class SourceHttpError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly statusObject?: SourceStatus,
  ) {
    super(`the source answered ${status}${statusObject?.reason ? ` ${statusObject.reason}` : ''} to GET ${path}${statusObject?.message ? `: ${statusObject.message}` : ''}`);
  }

  /** From an answer's status code and body text (a Status when it parses as one). */
  static from(status: number, path: string, body: string): SourceHttpError {
    let statusObject: SourceStatus | undefined;
    try {
      const parsed = JSON.parse(body) as { kind?: string } & SourceStatus;
      if (parsed?.kind === 'Status') statusObject = { code: parsed.code, reason: parsed.reason, message: parsed.message };
    } catch {
      // Not JSON (a proxy's HTML page): the code alone says what happened.
    }
    return new SourceHttpError(status, path, statusObject);
  }
}
