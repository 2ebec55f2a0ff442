// How the report writes a figure: milliseconds, counts, megabytes, ratios; '–' for none.

export const fmtMs = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
export const fmtNum = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
export const fmtMB = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${(v / 1024 / 1024).toFixed(v < 10 * 1024 * 1024 ? 1 : 0)} MB` : '–');
export const fmtX = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(2)}×` : '–');
