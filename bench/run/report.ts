// The report: rows, ratios to the floor, the targets met, and the PostgreSQL table.
import type { Result, CaseResult } from './cases';
import { fmtMs, fmtNum } from './format';
import { PG_DATASET, PG_READS, PG_WRITES } from './postgres-phase';

export interface Row {
  case: string;
  svctrail: string;
  /** floor-full and svctrail ÷ floor-full (informational: targets are judged against the floor). */
  floorFull: string;
  ratioFull: string;
  floor: string;
  ratio: string;
  target: string;
  met: string;
  /** Issue 11's target number (1–7) the row checks, for the summary. */
  goal?: number;
  values?: { svctrail?: number; floorFull?: number; ratioFull?: number; floor?: number; ratio?: number };
}

export interface Check {
  text: string;
  goal: number;
  check: (s: number, fl: number, ratio: number) => boolean;
}

/** The min–max of a repeated measurement, per column (svctrail, floor, floor-full). */
export interface Spread {
  s?: [number, number];
  fl?: [number, number];
  ff?: [number, number];
}

/** `value (min–max)` when the figure is the median of several runs. */
const withSpread = (fmt: (v: unknown) => string, v: number | undefined, range: [number, number] | undefined) => (range && v !== undefined ? `${fmt(v)} (${fmt(range[0])}–${fmt(range[1])})` : fmt(v));

export function ratioRow(label: string, s: number | undefined, fl: number | undefined, fmt: (v: unknown) => string, target?: Check, ff?: number, spread: Spread = {}): Row {
  const divide = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : undefined);
  const ratio = divide(s, fl);
  const ratioFull = divide(s, ff);
  const met = target ? (s !== undefined && fl !== undefined && ratio !== undefined ? (target.check(s, fl, ratio) ? 'yes' : 'NO') : '?') : '';
  return {
    case: label,
    svctrail: withSpread(fmt, s, spread.s),
    floorFull: ff === undefined ? '' : withSpread(fmt, ff, spread.ff),
    ratioFull: ratioFull === undefined || !Number.isFinite(ratioFull) ? (ff === undefined ? '' : '–') : ratioFull.toFixed(2),
    floor: withSpread(fmt, fl, spread.fl),
    ratio: ratio === undefined || !Number.isFinite(ratio) ? '–' : ratio.toFixed(2),
    target: target?.text ?? '',
    met,
    goal: target?.goal,
    values: { svctrail: s, floorFull: ff, ratioFull, floor: fl, ratio },
  };
}

/** A row whose target is on svctrail's value alone (the floor column is for reference). */
export function absoluteRow(label: string, s: number | undefined, fl: number | undefined, fmt: (v: unknown) => string, target?: Check, ff?: number): Row {
  const row = ratioRow(label, s, fl, fmt, undefined, ff);
  if (target) {
    row.target = target.text;
    row.goal = target.goal;
    row.met = s === undefined || !Number.isFinite(s) ? '?' : target.check(s, fl ?? NaN, NaN) ? 'yes' : 'NO';
  }
  return row;
}

export function table(rows: Row[]): string[] {
  const headers = ['case', 'svctrail', 'floor-full', 'floor', 'svctrail ÷ floor-full', 'svctrail ÷ floor', 'target (÷ floor)', 'met'];
  const cells = rows.map((r) => [r.case.replace(/\|/g, '\\|'), r.svctrail, r.floorFull, r.floor, r.ratioFull, r.ratio, r.target, r.met]);
  const left = (i: number) => i === 0 || i === 6;
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...cells.map(line)];
}

/**
 * The PostgreSQL table: svctrail-pg and svctrail-pg3 (on PG_DATASET) next to svctrail on SQLite
 * and the floor, from the same dataset where the run has the case (`same`), else from the main
 * dataset (`main`, marked).
 */
export function pgTable(pgResults: Map<string, CaseResult>, same: Map<string, CaseResult>, main: Map<string, CaseResult>, mainKey: string, pg: Result, maint: Result | undefined): string[] {
  const num = (o: Result | undefined, k: string) => (o && typeof o[k] === 'number' && Number.isFinite(o[k]) ? o[k] : undefined);
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b !== 0 ? (a / b).toFixed(2) : '–');
  const rows: string[][] = [];
  const add = (label: string, id: string, key: string, fmt: (v: unknown) => string, target = '', met?: (v: number) => boolean) => {
    const r = pgResults.get(id);
    if (!r) return;
    const ref = same.get(id)?.svctrail ? same.get(id) : main.get(id);
    const mark = ref && ref !== same.get(id) ? ` (${mainKey})` : '';
    const [p1, p3, s, f] = [num(r['svctrail-pg'], key), num(r['svctrail-pg3'], key), num(ref?.svctrail, key), num(ref?.floor, key)];
    const verdict = met ? (p3 === undefined ? '?' : met(p3) ? 'yes' : 'NO') : '';
    rows.push([
      label,
      fmt(p1),
      fmt(p3),
      s === undefined ? '–' : `${fmt(s)}${mark}`,
      f === undefined ? '–' : `${fmt(f)}${mark}`,
      ratio(p1, s),
      ratio(p3, s),
      ratio(p1, f),
      ratio(p3, f),
      target,
      verdict,
    ]);
  };
  const firstId = (id: string) => pgResults.get(id)?.title ?? id;
  /** Issue 25's throughput targets: one replica ≥ 0.5× SQLite, three ≥ 0.8× SQLite and ≥ 1.5× one. */
  const writeTargets = (id: string) => {
    const r = pgResults.get(id);
    const ref = same.get(id)?.svctrail ? same.get(id) : main.get(id);
    const [p1, p3, s] = [num(r?.['svctrail-pg'], 'rps'), num(r?.['svctrail-pg3'], 'rps'), num(ref?.svctrail, 'rps')];
    const checks = [p1 !== undefined && s ? p1 / s >= 0.5 : undefined, p3 !== undefined && s ? p3 / s >= 0.8 : undefined, p1 && p3 !== undefined ? p3 / p1 >= 1.5 : undefined];
    const verdict = checks.some((c) => c === undefined) ? '?' : checks.every(Boolean) ? 'yes' : 'NO';
    rows.push([`  pg3 ÷ pg: ${ratio(p3, p1)}`, '', '', '', '', '', '', '', '', 'pg ≥ 0.5× SQLite, pg3 ≥ 0.8× SQLite and ≥ 1.5× pg', verdict]);
  };
  /** Issue 45: three replicas spend at most 1.2× one replica's machine CPU per status write. */
  const cpuTarget = (id: string, key: string, label: string, target: string) => {
    const r = pgResults.get(id);
    const [p1, p3] = [num(r?.['svctrail-pg'], key), num(r?.['svctrail-pg3'], key)];
    const verdict = p1 === undefined || p3 === undefined ? '?' : p3 / p1 <= 1.2 ? 'yes' : 'NO';
    rows.push([`  pg3 ÷ pg ${label}: ${ratio(p3, p1)}`, '', '', '', '', '', '', '', '', target, target ? verdict : '']);
  };
  for (const def of PG_WRITES) {
    const id = `${def.id}-settled`;
    add(`${firstId(id)}: req/s`, id, 'rps', fmtNum);
    if (def.id === 'put-many-16' || def.id === 'put-many-64') writeTargets(id);
    add('  p50 ms', id, 'p50', fmtMs);
    add('  p99 ms', id, 'p99', fmtMs);
    add('  machine CPUs busy %', id, 'cpuBusy', (v) => (typeof v === 'number' ? (v * 100).toFixed(0) : '–'));
    add('  machine CPU ms per write (all processes)', id, 'cpuMsPerRequest', fmtMs);
    if (/^put-many-(16|32|64)$/.test(def.id)) cpuTarget(id, 'cpuMsPerRequest', 'machine CPU per write', '≤ 1.2 (issue 45)');
    add('  own CPU ms per write (svctrail, its PostgreSQL sessions, the load generator)', id, 'ownCpuMsPerRequest', fmtMs);
    if (/^put-many-(16|32|64)$/.test(def.id)) cpuTarget(id, 'ownCpuMsPerRequest', 'own CPU per write', '');
  }
  add('longest append-lock hold ms', 'append-lock-hold', 'maxMs', fmtMs);
  for (const def of PG_READS) {
    add(`${firstId(def.id)}: req/s`, def.id, 'rps', fmtNum);
    add('  p50 ms', def.id, 'p50', fmtMs);
    add('  p99 ms', def.id, 'p99', fmtMs);
  }
  const w = pgResults.get('watch-100');
  if (w) {
    add(`${w.title}: writes/s`, 'watch-100', 'writesPerSecond', fmtNum);
    add('  PUT p99 ms, watched', 'watch-100', 'putP99', fmtMs);
    add('  PUT p99 ms, unwatched (same rate)', 'watch-0', 'putP99', fmtMs);
    add('  delivered %', 'watch-100', 'deliveredFraction', (v) => (typeof v === 'number' ? (v * 100).toFixed(1) : '–'));
    add('  delivery lag p50 ms', 'watch-100', 'lagP50', fmtMs);
    add('  delivery lag p99 ms', 'watch-100', 'lagP99', fmtMs);
    add('  watchers dropped', 'watch-100', 'watchersDropped', (v) => String(v ?? '–'));
  }
  const c = pgResults.get('watch-cross');
  if (c) {
    add(`${c.title}: writes/s`, 'watch-cross', 'writesPerSecond', fmtNum);
    add(
      '  delivered %',
      'watch-cross',
      'deliveredFraction',
      (v) => (typeof v === 'number' ? (v * 100).toFixed(1) : '–'),
      '100 (svctrail-pg3)',
      (v) => v >= 0.999,
    );
    add('  delivery lag p50 ms', 'watch-cross', 'lagP50', fmtMs);
    add('  delivery lag p99 ms', 'watch-cross', 'lagP99', fmtMs, '≤ 1000 ms (issue 13 item 3)', (v) => v <= 1000);
    add('  watchers dropped', 'watch-cross', 'watchersDropped', (v) => String(v ?? '–'));
  }
  const imports = (pg.imports ?? {}) as Record<string, Result>;
  if (Object.keys(imports).length) {
    const [p1, p3] = [num(imports['svctrail-pg'], 'eventsPerSecond'), num(imports['svctrail-pg3'], 'eventsPerSecond')];
    const sqliteImport = maint && mainKey === PG_DATASET ? num(maint.import as Result | undefined, 'eventsPerSecond') : undefined;
    const rawImport = maint && mainKey === PG_DATASET ? num(maint.rawImport as Result | undefined, 'eventsPerSecond') : undefined;
    rows.push([
      `svctrail import of the ${PG_DATASET} export into an empty database: events/s (SQLite: svctrail import; floor: raw SQLite import)`,
      fmtNum(p1),
      fmtNum(p3),
      fmtNum(sqliteImport),
      fmtNum(rawImport),
      ratio(p1, sqliteImport),
      ratio(p3, sqliteImport),
      ratio(p1, rawImport),
      ratio(p3, rawImport),
      '',
      '',
    ]);
  }
  const headers = ['case', 'svctrail-pg', 'svctrail-pg3', 'svctrail (SQLite)', 'floor', 'pg ÷ SQLite', 'pg3 ÷ SQLite', 'pg ÷ floor', 'pg3 ÷ floor', 'target', 'met'];
  const cells = rows.map((r) => [r[0].replace(/\|/g, '\\|'), ...r.slice(1)]);
  const left = (i: number) => i === 0 || i === 9;
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  return [
    `## PostgreSQL (${PG_DATASET} dataset; svctrail-pg3: three replicas on one database, the load spread over them)`,
    '',
    line(headers),
    `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.map(line),
  ];
}

const GOALS: Record<number, string> = {
  1: 'status PUT ≥ 0.5× floor req/s, p99 ≤ 2× floor (settled and after a burst)',
  2: 'GET ≥ 0.8× floor, p99 ≤ 1.5×; LIST ≥ 0.5× floor',
  3: 'time travel & watch resume: p99 ≤ 2× floor; 1M within 1.25× of 10k',
  4: 'history: ≥ 0.5× floor, p99 ≤ 2× floor; who-had flat',
  5: 'watch fan-out: PUT p99 watched ≤ 1.25× unwatched; lag p99 ≤ 2× floor',
  6: 'replay ≥ 0.8×, verify and import ≥ 1.0× their floor-full (the raw program storing the same rows); peak RSS ≤ 400 MB',
  7: 'bytes/event ≤ 1.5× floor event table; server peak RSS ≤ 200 MB, at idle ≤ 120 MB',
};

export function summary(rows: Row[]): string[] {
  const out = ['| target | met | worst |', '|:--|--:|:--|'];
  let context = '';
  const withContext = rows.map((r) => {
    if (!r.case.startsWith('  ')) context = r.case.replace(/: [^:]*$/, '');
    return { r, label: r.case.startsWith('  ') ? `${context}: ${r.case.trim()}` : r.case };
  });
  for (const goal of Object.keys(GOALS).map(Number)) {
    const checked = withContext.filter(({ r }) => r.goal === goal && (r.met === 'yes' || r.met === 'NO'));
    if (!checked.length) continue;
    const missed = checked.filter(({ r }) => r.met === 'NO');
    const worst = missed
      .map(({ r, label }) => ({ label, r, badness: r.values?.ratio !== undefined && Number.isFinite(r.values.ratio) ? Math.max(r.values.ratio, 1 / r.values.ratio) : 0 }))
      .sort((a, b) => b.badness - a.badness)[0];
    out.push(
      `| ${goal}. ${GOALS[goal]} | ${checked.length - missed.length}/${checked.length} | ${worst ? `${worst.label}: ${worst.r.svctrail} vs ${worst.r.floor} (${worst.r.ratio})${worst.r.ratioFull ? `; vs floor-full ${worst.r.floorFull} (${worst.r.ratioFull})` : ''}` : '–'} |`,
    );
  }
  return out;
}
