// Datasets on disk: scratch copies, storage figures, and the CLI's maintenance commands (replay, verify, export, import).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_ROOT, type DatasetManifest } from '../generate-data';
import { ROOT } from '../real';
import { PROFILE_DIR, log } from './options';
import { children } from './processes';
import { type CacheDrop, syncAndDrop } from './page-cache';
import { type Result } from './cases';
import { fmtNum, fmtMB } from './format';

const CREDENTIALS = ['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'manifest.json', 'policy.jsonl'];

/** Every scratch copy made: how long its fsync took and how its pages left the page cache. */
export const copies: { label: string; syncMs: number; cacheDrop: CacheDrop }[] = [];

/**
 * A fresh copy of a dataset's directory (credentialsOnly: without its database, for a replica on
 * PostgreSQL), fsynced and dropped from the page cache (page-cache.ts) before anything runs on it.
 */
export function scratchCopy(source: string, label: string, credentialsOnly = false): string {
  const dir = join(DATA_ROOT, `run-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of credentialsOnly ? CREDENTIALS : ['svctrail.db', ...CREDENTIALS]) {
    if (existsSync(join(source, file))) copyFileSync(join(source, file), join(dir, file));
  }
  const t0 = performance.now();
  const cacheDrop = syncAndDrop(dir, log);
  copies.push({ label, syncMs: performance.now() - t0, cacheDrop });
  return dir;
}

export function storage(dataDir: string, manifest: DatasetManifest): Result {
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const bytes = statSync(join(dataDir, 'svctrail.db')).size;
  const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  let eventTableBytes = NaN;
  let byObject: Record<string, number> = {};
  try {
    const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name ORDER BY size DESC').all() as { name: string; size: number }[];
    byObject = Object.fromEntries(rows.map((r) => [r.name, r.size]));
    eventTableBytes = byObject.events ?? NaN;
  } catch {
    // dbstat not compiled in
  }
  db.close();
  return { events, bytes, bytesPerEvent: bytes / events, eventTableBytes, eventTableBytesPerEvent: eventTableBytes / events, byObject, manifestEvents: manifest.events };
}

/**
 * What a target's writes added to its copy of the database: bytes of every table and index
 * (dbstat) and events, after the phase against the dataset it started from; per event.
 */
export function writtenStorage(dataDir: string, base: Result): Result {
  const db = new Database(join(dataDir, 'svctrail.db'), { fileMustExist: true });
  try {
    const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
    const rows = db.prepare('SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name').all() as { name: string; size: number }[];
    const before = (base.byObject ?? {}) as Record<string, number>;
    const byObject: Record<string, number> = {};
    for (const r of rows) if (r.size !== (before[r.name] ?? 0)) byObject[r.name] = r.size - (before[r.name] ?? 0);
    const bytes = Object.values(byObject).reduce((a, b) => a + b, 0);
    const added = events - (base.events as number);
    return { events: added, bytes, bytesPerEvent: added > 0 ? bytes / added : NaN, byObjectPerEvent: Object.fromEntries(Object.entries(byObject).map(([k, v]) => [k, added > 0 ? v / added : NaN])) };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    db.close();
  }
}

/** The profile svctrail's main thread wrote on exit (node names it CPU.<date>.<pid>.<thread>.<seq>.cpuprofile). */
export function profileOf(pid: number): string | undefined {
  const files = readdirSync(PROFILE_DIR).filter((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'));
  return files.length ? join(PROFILE_DIR, files.sort().at(-1)!) : undefined;
}

/** Runs a node script to its end; `opts.root`: its working directory and, for cli-rss.js, whose dist/cli.js it runs. */
export function runNode(
  script: string,
  argv: string[],
  label: string,
  opts: { root?: string; nodeFlags?: string[] } = {},
): Promise<{ code: number; stdout: string; stderr: string; ms: number; peakRssBytes: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const root = opts.root ?? ROOT;
    const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), script, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SVCTRAIL_CLI_ROOT: root } });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < 1_000_000) stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
    });
    child.on('exit', (code) => {
      children.delete(child);
      const ms = performance.now() - t0;
      const rss = Number(/bench-peak-rss (\d+)/.exec(stderr)?.[1] ?? NaN);
      if (code !== 0) log(`  ${label} exited with ${code}: ${stderr.slice(-2000)}`);
      resolve({ code: code ?? -1, stdout, stderr, ms, peakRssBytes: rss });
    });
  });
}

/** `svctrail <argv>` of this tree's build, or of `root`'s (bench/ab.ts), with its peak RSS. */
export const cli = (argv: string[], label: string, root = ROOT) => runNode(join(ROOT, 'bench', 'dist', 'cli-rss.js'), argv, label, { root });

async function replayHelper(argv: string[]): Promise<Result> {
  const r = await runNode(join(ROOT, 'bench', 'dist', 'replay.js'), argv, `replay.js ${argv.join(' ')}`);
  if (r.code !== 0) throw new Error(`replay.js ${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** replay, verify, export, import through the CLI, against the raw fold and the raw import. */
export async function maintenance(source: string, label: string, events: number, scratch: string[]): Promise<Result> {
  const out: Result = {};
  const dir = scratchCopy(source, `${label}-maintenance`);
  scratch.push(dir);
  const rate = (ms: number) => events / (ms / 1000);
  out.rawFold = await replayHelper(['--db', join(source, 'svctrail.db'), '--mode', 'raw']);
  log(`  raw read-parse-fold: ${fmtNum((out.rawFold as Result).events)} events at ${fmtNum((out.rawFold as Result).eventsPerSecond)}/s, peak RSS ${fmtMB((out.rawFold as Result).peakRssBytes)}`);
  // The floor-full of a rebuild: the raw fold plus the rows svctrail's rebuild stores, indexes built after.
  out.rawRebuild = await replayHelper(['--db', join(source, 'svctrail.db'), '--mode', 'raw-rebuild', '--out', join(dir, 'raw-rebuild.db')]);
  rmSync(join(dir, 'raw-rebuild.db'), { force: true });
  log(`  raw rebuild (the same rows stored): ${fmtNum((out.rawRebuild as Result).eventsPerSecond)} events/s, peak RSS ${fmtMB((out.rawRebuild as Result).peakRssBytes)}`);
  for (const command of ['verify', 'replay'] as const) {
    const r = await cli([command, '--data-dir', dir], `svctrail ${command}`);
    out[command] = { ok: r.code === 0, ms: r.ms, eventsPerSecond: rate(r.ms), peakRssBytes: r.peakRssBytes, code: r.code };
    log(`  svctrail ${command.padEnd(7)} ${(r.ms / 1000).toFixed(1)} s = ${fmtNum(rate(r.ms))} events/s, peak RSS ${fmtMB(r.peakRssBytes)}${r.code ? ` (exit ${r.code})` : ''}`);
  }
  const file = join(dir, 'export.ndjson');
  const exported = await cli(['export', '--data-dir', dir, '--out', file], 'svctrail export');
  out.export = { ok: exported.code === 0, ms: exported.ms, eventsPerSecond: rate(exported.ms), peakRssBytes: exported.peakRssBytes, bytes: existsSync(file) ? statSync(file).size : NaN };
  log(`  svctrail export  ${(exported.ms / 1000).toFixed(1)} s = ${fmtNum(rate(exported.ms))} events/s`);
  if (exported.code === 0) {
    const target = join(dir, 'imported');
    mkdirSync(target, { mode: 0o700 });
    const r = await cli(['import', '--data-dir', target, file], 'svctrail import');
    out.import = { ok: r.code === 0, ms: r.ms, eventsPerSecond: rate(r.ms), peakRssBytes: r.peakRssBytes, code: r.code };
    log(`  svctrail import  ${(r.ms / 1000).toFixed(1)} s = ${fmtNum(rate(r.ms))} events/s, peak RSS ${fmtMB(r.peakRssBytes)}${r.code ? ` (exit ${r.code})` : ''}`);
    const imported = join(target, 'svctrail.db');
    if (r.code === 0) out.importBytesPerEvent = statSync(imported).size / events;
    rmSync(target, { recursive: true, force: true });
    out.rawImport = await replayHelper(['--mode', 'raw-import', '--file', file, '--out', join(dir, 'raw-import.db')]);
    rmSync(join(dir, 'raw-import.db'), { force: true });
    log(`  raw import:       ${fmtNum((out.rawImport as Result).eventsPerSecond)} events/s, peak RSS ${fmtMB((out.rawImport as Result).peakRssBytes)}`);
    // import's floor-full: the same events appended, then the same projection rows stored.
    out.rawImportRebuild = await replayHelper(['--mode', 'raw-import-rebuild', '--file', file, '--out', join(dir, 'raw-import-rebuild.db')]);
    rmSync(join(dir, 'raw-import-rebuild.db'), { force: true });
    const full = out.rawImportRebuild as Result;
    log(`  raw import + rebuild: ${fmtNum(full.eventsPerSecond)} events/s, ${fmtNum(full.bytesPerEvent)} bytes/event, peak RSS ${fmtMB(full.peakRssBytes)}`);
  }
  return out;
}

/** The share of the log a compaction figure keeps: its horizon is at the newest 10%. */
const KEPT_SHARE = 0.1;

/**
 * `svctrail compact` to the newest 10% of the log, on a copy of the dataset (no server running):
 * the database file's bytes per event after it (the freed pages given back), and the speed of
 * the compaction itself (revisions at or below the horizon per second, from its record's start
 * to its end).
 */
export async function compaction(source: string, label: string, scratch: string[]): Promise<Result> {
  const dir = scratchCopy(source, `${label}-compaction`);
  scratch.push(dir);
  const path = join(dir, 'svctrail.db');
  const db = new Database(path, { readonly: true });
  let events: number;
  let before: number;
  let revisions: number;
  try {
    events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
    const head = db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck().get() as number;
    before = Math.floor(head * (1 - KEPT_SHARE));
    revisions = db.prepare('SELECT count(*) FROM service_revisions WHERE resource_version <= ?').pluck().get(before) as number;
  } finally {
    db.close();
  }
  const r = await cli(['compact', '--before', String(before), '--data-dir', dir, '-o', 'json'], 'svctrail compact');
  if (r.code !== 0) return { error: r.stderr.slice(-500) };
  const report = JSON.parse(r.stdout) as { compaction: { startedAt: string; finishedAt: string; removed: { objects: number; bytes: number } }; databaseBytes: { before: number; after: number } };
  const ms = Date.parse(report.compaction.finishedAt) - Date.parse(report.compaction.startedAt);
  const bytes = statSync(path).size;
  const out: Result = {
    horizon: before,
    revisions,
    removedObjects: report.compaction.removed.objects,
    removedBytes: report.compaction.removed.bytes,
    ms,
    revisionsPerSecond: revisions / (Math.max(ms, 1) / 1000),
    bytes,
    bytesPerEvent: bytes / events,
    peakRssBytes: r.peakRssBytes,
  };
  log(
    `  svctrail compact --before ${before}: ${fmtNum(revisions)} revisions in ${(ms / 1000).toFixed(1)} s = ${fmtNum(out.revisionsPerSecond)} revisions/s, ` +
      `${fmtNum(report.compaction.removed.objects)} objects removed; database ${fmtMB(report.databaseBytes.before)} → ${fmtMB(bytes)} (${fmtNum(out.bytesPerEvent)} bytes/event)`,
  );
  return out;
}
