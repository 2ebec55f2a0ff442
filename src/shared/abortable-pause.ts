// Waits that a stopping signal ends early. An AbortSignal fires its 'abort' event once: a listener
// added after that never runs, so both waits look at `aborted` first and end at once on a signal
// that is already aborted (a stop that arrived while the caller was busy elsewhere).

/** Resolves after `ms`, or as soon as `signal` aborts (at once when it has). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves when `signal` aborts (at once when it has). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
