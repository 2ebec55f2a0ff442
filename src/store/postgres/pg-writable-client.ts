// node-postgres's Client, connected to the server PrimaryLocator names and kept only while that
// server accepts writes: every pool and connection of the PostgreSQL store is one of these
// (node-postgres makes its pools' connections with the `Client` class it is given).
//
// - Connecting asks the locator for the server, connects there, and reads what the server
//   reported at startup (in_hot_standby, default_transaction_read_only: PostgreSQL 14+; older
//   servers are asked, as libpq asks): a standby or a read-only server fails the connection with
//   ServerNotWritableError, and the locator looks again next time.
// - A server reports those two whenever they change: a session whose server turned read-only
//   (or whose proxy now leads to another server, which ends the session anyway) is dropped.
// - A connection lost without our asking tells the locator, so the next one finds the primary
//   again (a failover ends every session of the old primary), and never ends the process.
import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { Client, type ClientConfig } from 'pg';
import { askedReadOnly, type PrimaryLocator, reportedReadOnly, type ReportedSession, ServerNotWritableError } from './primary-locator';
import { addressText, type ServerAddress } from '../postgres-url';

type ProtocolConnection = EventEmitter & { stream: Socket };

/** A Client class whose connections go to `locator`'s writable server (`readOnly`: any server the URL names will do). */
export function writableClientClass(locator: PrimaryLocator, readOnly = false): typeof Client {
  class WritableClient extends Client {
    private address: ServerAddress | undefined;
    private readonly reported: ReportedSession = {};
    private ready = false;

    constructor(config?: string | ClientConfig) {
      super(config);
      // A backend ended while nobody waits on the connection (terminated between two queries, or
      // right after connecting, before the pool listens) is an 'error' event, and one nobody
      // hears ends the process: heard here always. The connection ends with it ('end' below), its
      // next query fails on its own, and the pool drops it.
      this.on('error', () => undefined);
      const connection = this.connection as unknown as ProtocolConnection;
      connection.on('parameterStatus', (m: { parameterName: string; parameterValue: string }) => {
        (this.reported as Record<string, string>)[m.parameterName] = m.parameterValue;
        const why = reportedReadOnly(this.reported);
        if (this.ready && !readOnly && why) {
          // The server turned read-only under this session: it must not serve this replica again.
          locator.forget(this.address);
          connection.stream.destroy(new ServerNotWritableError(`PostgreSQL at ${addressText(this.address!)} is now ${why}`));
        }
      });
      connection.once('end', () => {
        if (this.ready && !(this as unknown as { _ending: boolean })._ending) locator.forget(this.address);
      });
    }

    override connect(): Promise<Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: Client) => void)): Promise<Client> | void {
      const connected = this.connectWritable();
      if (!callback) return connected;
      connected.then(
        (client) => (callback as (err: null, c: Client) => void)(null, client),
        (error: Error) => (callback as (err: Error) => void)(error),
      );
    }

    private async connectWritable(): Promise<Client> {
      const address = await locator.writable();
      const connection = this.connection as unknown as ProtocolConnection;
      // The pool's connection timeout may have ended the socket while the locator searched.
      if (connection.stream.destroyed) throw new Error('timeout expired');
      this.address = address;
      this.host = address.host;
      this.port = address.port;
      try {
        await super.connect();
      } catch (error) {
        locator.forget(address);
        throw error;
      }
      if (!readOnly) {
        let why = reportedReadOnly(this.reported);
        if (why === null) why = await askedReadOnly(this);
        if (why) {
          locator.forget(address);
          await this.end().catch(() => undefined);
          throw new ServerNotWritableError(`PostgreSQL at ${addressText(address)} is ${why}`);
        }
      }
      this.ready = true;
      locator.connected(address);
      return this;
    }
  }
  return WritableClient;
}
