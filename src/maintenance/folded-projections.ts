// Refolds a log into a scratch database's projection tables with the same code the live path
// and rebuildProjections use, reporting progress per write. The log is the scratch's own, or
// (verify, replay) the live file's snapshot read on the live connection: no copy of it is made.
import { type LogSource, countLog } from '../projections/log-reader';
import { rebuildProjections, type RebuildReport } from '../projections/projection-rebuild';
import { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';
import type { Progress } from './progress';
import type { RevisionTextForm } from '../store/revision-texts';

export function foldProjections(handle: DatabaseHandle, progress: Progress, source: LogSource = { sqlite: handle.sqlite }, revisionTexts?: RevisionTextForm): RebuildReport {
  const projector = new Projector(handle, revisionTexts);
  progress.start('fold projections', countLog(source), 'events');
  try {
    return rebuildProjections(handle, projector, (events) => progress.advance(events), source);
  } finally {
    progress.done();
  }
}
