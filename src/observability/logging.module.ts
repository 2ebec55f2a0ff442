// Structured JSON logs (pino through nestjs-pino): one line per request with its id (the
// Audit-Id header) and user, and one per committed write with its resourceVersion.
import { DynamicModule, Module } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

/** Set on the raw request by the authentication hook, so request logs carry them. */
export type LoggedRequest = IncomingMessage & { id: string; svctrailUser?: string };

@Module({})
export class LoggingModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // Request lines are written by the server's onResponse hook, which sees every
            // request (also those answered before routing, such as 401s).
            autoLogging: false,
            genReqId: (req) => (req as LoggedRequest).id ?? '',
            customProps: (req) => ({ user: (req as LoggedRequest).svctrailUser }),
            serializers: {
              req: (req: { method: string; url: string; headers: Record<string, string> }) => ({
                method: req.method,
                url: req.url,
                userAgent: req.headers?.['user-agent'],
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
