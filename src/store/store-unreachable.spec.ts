import { isStoreUnreachable } from './store-unreachable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isStoreUnreachable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['the server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a server that does not accept writes (25006: a standby, a read-only old primary)', withCode('cannot execute INSERT in a read-only transaction', '25006')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['every address refused', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '')],
    ['a wrapped cause', new Error('opening the store failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
  ])('given %s, then the store is unreachable', (_, error) => {
    expect(isStoreUnreachable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error (42601)', withCode('syntax error at or near', '42601')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['SQLite busy', withCode('database is locked', 'SQLITE_BUSY')],
  ])('given %s, then it is not', (_, error) => {
    expect(isStoreUnreachable(error)).toBe(false);
  });
});
