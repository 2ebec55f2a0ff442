// The server's run of the event-data conversion (event-data-packing.ts): started once the app is
// up, a batch at a time in the background (each batch one short write transaction, joining the
// group commit on SQLite), a progress line every tenth, stopped between batches at shutdown. A
// converted store costs one seek of an empty index at start.
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EventDataPacking } from './event-data-packing';

export const EVENT_DATA_PACKING = Symbol('EVENT_DATA_PACKING');

@Injectable()
export class EventDataPacker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventDataPacker');
  private stopping = false;
  private running: Promise<void> | undefined;

  constructor(@Inject(EVENT_DATA_PACKING) private readonly packing: EventDataPacking) {}

  onApplicationBootstrap(): void {
    this.running = this.run().catch((error: unknown) => {
      // The store stays readable as it is (every reader takes both forms); the next start resumes.
      this.logger.error(`packing the log's event data stopped: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Done with the conversion (or stopped): for tests and shutdown. */
  async settled(): Promise<void> {
    await this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  private async run(): Promise<void> {
    const total = await this.packing.remaining();
    if (total === 0) return;
    const started = Date.now();
    this.logger.log(`packing the data of ${total} events written before packed event data, in the background`);
    let done = 0;
    let reported = 0;
    while (!this.stopping) {
      const n = await this.packing.step();
      if (n === 0) break;
      done += n;
      if (done - reported >= total / 10) {
        reported = done;
        this.logger.log(`packed the data of ${done} of ${total} events (${Math.floor((100 * done) / total)}%)`);
      }
      // Let requests in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!this.stopping) this.logger.log(`packed the data of ${done} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
