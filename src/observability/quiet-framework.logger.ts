// Nest announces every module it initialised and every route it mapped (about 50 lines) at
// info level on each start. They are debug detail: at info the start-up log is the one line
// that says how to connect (and any warnings).
import type { LoggerService } from '@nestjs/common';

const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

export class QuietFrameworkLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) && this.inner.debug) this.inner.debug(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}
