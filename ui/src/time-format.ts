// Times shown in UTC or the browser's zone (the `tz` URL parameter); the URL itself always holds
// UTC instants.
import { route } from './route';

export type Zone = 'utc' | 'local';

export function zone(): Zone {
  return route.get().tz === 'local' ? 'local' : 'utc';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatTime(iso: string | number | Date, z: Zone = zone()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  if (z === 'utc') return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 23)}Z`;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

export const PRESETS: { label: string; ms: number }[] = [
  { label: '15m', ms: 15 * 60_000 },
  { label: '1h', ms: 3_600_000 },
  { label: '6h', ms: 6 * 3_600_000 },
  { label: '24h', ms: 24 * 3_600_000 },
  { label: '7d', ms: 7 * 24 * 3_600_000 },
  { label: '30d', ms: 30 * 24 * 3_600_000 },
];
