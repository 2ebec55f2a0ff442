// Load-balancer ingress addresses (IPs and hostnames) as intervals: who set an address on which
// Service, from which resourceVersion until which. "Who held IP X at T" is an index lookup.
import type { DatabaseHandle } from '../store/database';
import { IngressIntervalBulkFold } from './ingress-interval-bulk-fold';
import type { BulkFold, Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';
import { ingressSteps } from './projection-rows';

export class IngressHistoryProjection implements Projection {
  readonly name = 'ingress-history';
  readonly tables = ['ingress_intervals'];
  private readonly open;
  private readonly closeOne;
  private readonly closeAll;
  private readonly handle: DatabaseHandle;

  constructor(handle: DatabaseHandle) {
    this.handle = handle;
    this.open = handle.sqlite.prepare(
      `INSERT INTO ingress_intervals (address, address_type, uid, namespace, name, from_resource_version, from_time, set_by)
       VALUES (@address, @addressType, @uid, @namespace, @name, @resourceVersion, @recordedAt, @user)`,
    );
    this.closeOne = handle.sqlite.prepare(
      // Through the Service's open intervals (a handful), not its whole history of this address:
      // the unary + keeps the (address, uid, from) index out of the planner's reach. Not INDEXED
      // BY, which fails while a replay has the index under its shadow name.
      `UPDATE ingress_intervals SET to_resource_version = @resourceVersion, to_time = @recordedAt, cleared_by = @user
       WHERE uid = @uid AND +address = @address AND +address_type = @addressType AND to_resource_version IS NULL`,
    );
    this.closeAll = handle.sqlite.prepare(
      `UPDATE ingress_intervals SET to_resource_version = @resourceVersion, to_time = @recordedAt, cleared_by = @user
       WHERE uid = @uid AND to_resource_version IS NULL`,
    );
  }

  apply(write: CommittedWrite): void {
    const base = {
      uid: write.streamId,
      namespace: write.namespace,
      name: write.name,
      resourceVersion: write.resourceVersion,
      recordedAt: write.metadata.recordedAt,
      user: write.metadata.user,
    };
    for (const step of ingressSteps(write.events)) {
      if (step.op === 'close-all') this.closeAll.run(base);
      else if (step.op === 'close') this.closeOne.run({ ...base, address: step.address, addressType: step.addressType });
      else this.open.run({ ...base, address: step.address, addressType: step.addressType });
    }
  }

  /** A rebuild inserts each interval once, whole (its open-interval index is dropped meanwhile). */
  bulkFold(): BulkFold {
    return new IngressIntervalBulkFold(this.handle);
  }

  /** The R-tree of closed intervals (kept by triggers on the live path, see migration 0005). */
  rebuilt(): void {
    this.handle.sqlite.exec(`DELETE FROM ingress_interval_spans;
      INSERT INTO ingress_interval_spans (id, from_rv, to_rv)
        SELECT id, from_resource_version, to_resource_version FROM ingress_intervals WHERE to_resource_version IS NOT NULL ORDER BY id;`);
  }
}
