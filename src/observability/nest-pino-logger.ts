// Nest's LoggerService over pino, so the framework's messages and every `new Logger('Name')` of
// @nestjs/common come out as the same JSON lines as the rest. Nest passes the context as the
// last parameter; it becomes the line's `context` field, as in our own child loggers.
import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const log: (...args: unknown[]) => void = this.logger[level].bind(this.logger);
    const fields: Record<string, unknown> = {};
    let rest: unknown[] = [];
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (typeof message === 'object') {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      log(fields, ...rest);
    } else if (level === 'error' && typeof message === 'string' && rest.length === 1 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0])) {
      // Nest's exception handlers call error(message, stack, context): the stack goes with an
      // Error, not into the message's format arguments.
      const err = new Error(message);
      err.stack = rest[0];
      fields.err = err;
      log(fields);
    } else {
      log(fields, message, ...rest);
    }
  }
}
