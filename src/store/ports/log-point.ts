// A point in the log as an operator names it: a resourceVersion, or an RFC 3339 time (UTC with
// milliseconds, as the log records it). What it stands for is decided by whoever reads it.
export type LogPoint = { kind: 'resourceVersion'; resourceVersion: number } | { kind: 'time'; time: string };
