// Structured JSON logs on stdout, written with pino: one line per committed write (request id =
// the Audit-Id header, user, verb, resourceVersion) at info, one per request (user, status, ms)
// at debug, written by the server's onResponse hook so it sees every request (also those
// answered before routing, such as 401s), and Nest's own messages through NestPinoLogger.
// A class logs through `logger.child({ context: 'Name' })`; the context is a field of each line.
import { DynamicModule, Module } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** The app's pino logger, at the configured level. */
export const LOGGER = Symbol('LOGGER');

/** Set on the raw request by the authentication hook, so request logs carry them. */
export type LoggedRequest = IncomingMessage & { id: string; svctrailUser?: string };

@Module({})
export class LoggingModule {
  static register(config: AppConfig): DynamicModule {
    // Written off the main thread (sonic-boom's asynchronous mode, lines that queue meanwhile go
    // out in one write): a synchronous write(2) to a pipe per committed write cost the writer ~9 µs
    // of its thread. pino flushes what is queued when the process exits; a SIGKILL may lose the
    // last lines, never a write (the log of events is what is durable).
    const logger: Logger = pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: false }));
    return {
      module: LoggingModule,
      global: true,
      providers: [{ provide: LOGGER, useValue: logger }],
      exports: [LOGGER],
    };
  }
}
