import { Writable } from 'node:stream';
import { pino } from 'pino';
import { NestPinoLogger } from './nest-pino-logger';
import { QuietFrameworkLogger } from './quiet-framework.logger';

/** The JSON lines a logger at `level` writes, without time, pid and hostname. */
function capture(level = 'trace') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level, base: undefined, timestamp: false }, stream) };
}

describe('NestPinoLogger', () => {
  it("writes Nest's context (its last parameter) as the line's context field, at pino's level", () => {
    const { lines, logger } = capture();
    const nest = new NestPinoLogger(logger);
    nest.log('Nest application successfully started', 'NestApplication');
    nest.verbose('v', 'C');
    nest.debug('d', 'C');
    nest.warn('w %s', 'x', 'C');
    nest.fatal('f', 'C');
    nest.log('no context');
    expect(lines).toEqual([
      { level: 30, context: 'NestApplication', msg: 'Nest application successfully started' },
      { level: 10, context: 'C', msg: 'v' },
      { level: 20, context: 'C', msg: 'd' },
      { level: 40, context: 'C', msg: 'w x' },
      { level: 60, context: 'C', msg: 'f' },
      { level: 30, msg: 'no context' },
    ]);
  });

  it("keeps an exception handler's stack as the err of the line, not in its message", () => {
    const { lines, logger } = capture();
    const error = new Error('boom');
    new NestPinoLogger(logger).error('boom', error.stack, 'ExceptionsHandler');
    expect(lines).toEqual([{ level: 50, context: 'ExceptionsHandler', err: { type: 'Error', message: 'boom', stack: error.stack }, msg: 'boom' }]);
  });

  it('serializes an Error message as err and merges an object message into the line', () => {
    const { lines, logger } = capture();
    const nest = new NestPinoLogger(logger);
    const error = new Error('lost');
    nest.error(error, 'C');
    nest.warn({ lag: 3, msg: 'behind' }, 'C');
    expect(lines).toEqual([
      { level: 50, context: 'C', err: { type: 'Error', message: 'lost', stack: error.stack }, msg: 'lost' },
      { level: 40, context: 'C', lag: 3, msg: 'behind' },
    ]);
  });

  it("writes nothing below the configured level, so Nest's start-up chatter is gone at info", () => {
    const { lines, logger } = capture('info');
    const quiet = new QuietFrameworkLogger(new NestPinoLogger(logger));
    quiet.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.log('mirror caught up', 'Mirror');
    expect(lines).toEqual([{ level: 30, context: 'Mirror', msg: 'mirror caught up' }]);
  });
});
