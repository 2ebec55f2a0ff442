// What one write step draws (uids, random numbers), the same on every run of it. An engine may
// run a step again after fetching facts it asked for (PostgreSQL asks the allocation table for
// the candidates a first run drew): the run must draw the same candidates to converge, and the
// write must not depend on how many runs an engine needed.
import type { IdFactory } from '../shared/ids';

export class ReplayedDraws {
  private readonly uids: string[] = [];
  private readonly randoms: number[] = [];
  private nextUid = 0;
  private nextRandom = 0;

  constructor(private readonly source: IdFactory) {}

  /** Starts a run: draws are replayed from the first. */
  rewind(): this {
    this.nextUid = 0;
    this.nextRandom = 0;
    return this;
  }

  newUid(): string {
    if (this.nextUid === this.uids.length) this.uids.push(this.source.newUid());
    return this.uids[this.nextUid++];
  }

  random(): number {
    if (this.nextRandom === this.randoms.length) this.randoms.push(this.source.random());
    return this.randoms[this.nextRandom++];
  }
}
