// The Age cell: apimachinery util/duration.HumanDuration and printers.go translateTimestampSince.
// Pure: the caller passes `now`, so a row computed at request time is reproducible in tests.
import { GO_ZERO_TIME_SECONDS, parseRfc3339 } from '../../domain/codec/go-time';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * duration.HumanDuration for a duration in milliseconds: ~2-3 significant figures.
 * Go's `int(d.Seconds())` truncates toward zero, so -1.9s still counts as -1 and renders `0s`
 * (the apiserver tolerates under 2s of clock skew); -2s and below render `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/**
 * printers.go translateTimestampSince: `<unknown>` for the zero metav1.Time (absent, null, or
 * 0001-01-01T00:00:00Z), else HumanDuration(now - t). metav1.Time keeps whole seconds.
 */
export function translateTimestampSince(creationTimestamp: string | null | undefined, now: Date): string {
  if (!creationTimestamp) return '<unknown>';
  const parsed = parseRfc3339(creationTimestamp);
  // An unparseable time cannot reach a stored object; treat it as the zero time.
  if (!parsed.ok || parsed.seconds === GO_ZERO_TIME_SECONDS) return '<unknown>';
  return humanDuration(now.getTime() - parsed.seconds * SECOND);
}
