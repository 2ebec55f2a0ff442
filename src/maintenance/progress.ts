// How long-running maintenance reports how far it got. The CLI draws a bar; library callers and
// tests pass `silentProgress`.
export interface Progress {
  /** A new phase of `total` units (undefined when the total is unknown, e.g. reading stdin). */
  start(phase: string, total: number | undefined, unit: string): void;
  advance(units: number): void;
  /** The phase is complete. */
  done(): void;
}

export const silentProgress: Progress = {
  start: () => undefined,
  advance: () => undefined,
  done: () => undefined,
};
