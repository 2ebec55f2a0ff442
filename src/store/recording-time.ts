// The time a write is recorded at, on every engine: the clock's, but never before the newest
// write's, so recorded_at grows with position even when the system clock steps back (NTP, a VM
// restore) or a replica's clock is behind another's. Every time → resourceVersion lookup (asOf,
// since, until) relies on it. SQLite reads the newest inside its write transaction; PostgreSQL
// clamps once more under the append lock (svctrail_append).
export function recordingTime(clockNow: Date, newest: string | undefined): Date {
  if (newest === undefined) return clockNow;
  const newestMs = Date.parse(newest);
  return clockNow.getTime() < newestMs ? new Date(newestMs) : clockNow;
}
