// `--history-retention` durations: one or more <integer><unit> parts, s m h d (e.g. 30d, 12h,
// 1h30m, 3s), as an operator writes them. Pure.

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const RETENTION_PATTERN = /^(\d+[smhd])+$/;

/** The duration in milliseconds; undefined when the text is not one (or is zero). */
export function retentionMs(text: string): number | undefined {
  if (!RETENTION_PATTERN.test(text)) return undefined;
  let ms = 0;
  for (const [, count, unit] of text.matchAll(/(\d+)([smhd])/g)) ms += Number(count) * UNIT_MS[unit];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** How often retention compacts: every tenth of the duration, at least hourly. */
export function retentionPeriodMs(durationMs: number): number {
  return Math.min(Math.max(1, Math.floor(durationMs / 10)), UNIT_MS.h);
}
