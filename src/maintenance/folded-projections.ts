// Refolds a scratch database's log into its projection tables with the same code the live path
// and rebuildProjections use, reporting progress per write.
import { rebuildProjections, RebuildReport } from '../projections/projection-rebuild';
import { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';
import { logHead } from './log-point';
import type { Progress } from './progress';

export function foldProjections(handle: DatabaseHandle, progress: Progress): RebuildReport {
  const projector = new Projector(handle);
  progress.start('fold projections', countEvents(handle), 'events');
  try {
    return rebuildProjections(handle, projector, (events) => progress.advance(events));
  } finally {
    progress.done();
  }
}

function countEvents(handle: DatabaseHandle): number {
  return logHead(handle.sqlite) && (handle.sqlite.prepare('SELECT count(*) FROM events').pluck().get() as number);
}
