// What a storage engine reports of its commits (the metrics service listens), whichever engine it is.

export interface CommitObserver {
  /** Called after every commit with the number of writes it held and how long COMMIT took. */
  committed(batchSize: number, commitSeconds: number): void;
  /** PostgreSQL: how long one append statement held the append lock, on the server. */
  appendLockHeld?(seconds: number): void;
}
