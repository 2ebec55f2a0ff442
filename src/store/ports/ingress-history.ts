// The ingress history: intervals during which a Service held an address, and conflicts (two
// Services holding one address at once), whatever the engine.

export interface IntervalRow {
  id: number;
  address: string;
  addressType: 'ip' | 'hostname';
  uid: string;
  namespace: string;
  name: string;
  fromResourceVersion: number;
  fromTime: string;
  setBy: string;
  toResourceVersion: number | null;
  toTime: string | null;
  clearedBy: string | null;
}

export interface IntervalRange {
  namespace?: string;
  name?: string;
  uid?: string;
  address?: string;
  addressType?: string;
  setBy?: string;
  /** Intervals overlapping [fromRv, toRv]: from <= toRv and (open or to > fromRv). */
  fromRv: number;
  toRv: number;
  /** True when the window starts after the beginning of the log (it then needs an overlap search). */
  windowed: boolean;
  /** Keyset cursor: strictly after (from, id). */
  after?: { from: number; id: number };
}

export interface ConflictRow {
  first: IntervalRow;
  second: IntervalRow;
}

export interface ConflictRange {
  namespace?: string;
  name?: string;
  uid?: string;
  address?: string;
  /** Conflicts that began (the later assignment) within [fromRv, toRv]. */
  fromRv: number;
  toRv: number;
  after?: { secondFrom: number; secondId: number; firstId: number };
}

/** The ingress history: who held which address when, and conflicts (either engine). */
export interface IngressHistory {
  /** Intervals overlapping the range, in (from, id) order. */
  intervals(range: IntervalRange, limit: number): Promise<IntervalRow[]>;
  /** Conflicts that began within the range, in (second.id, first.id) order. */
  conflicts(range: ConflictRange, limit: number): Promise<ConflictRow[]>;
}

/** DI token of the engine's IngressHistory. */
export const INGRESS_HISTORY = Symbol('INGRESS_HISTORY');
