// In-process fan-out of committed writes (watchers, metrics). Published only after commit, so
// nothing downstream ever sees a write that could still roll back.
import { Subject, Observable } from 'rxjs';
import type { CommittedWrite } from '../projections/projection';

export class ChangeFeed {
  private readonly subject = new Subject<CommittedWrite>();
  readonly writes: Observable<CommittedWrite> = this.subject.asObservable();

  publish(write: CommittedWrite): void {
    this.subject.next(write);
  }
}
