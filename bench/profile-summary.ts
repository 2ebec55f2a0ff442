// Where a .cpuprofile's time went (sampled main-thread time: running JavaScript, or blocked in a
// synchronous native call, which V8 charges to the JavaScript function that made it): self time by module (an npm package, a directory of
// svctrail's dist/, a node: internal area, or V8 itself: GC, compiled code, idle) and the top
// functions by self time, optionally only over a window of the profile (the measured part of
// one benchmark case, on the monotonic clock V8 stamps its samples with).
//
// usage: node bench/dist/profile-summary.js FILE.cpuprofile [TOP]
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled ms in the window, idle included. */
  totalMs: number;
  /** Sampled ms in the window minus (idle). */
  busyMs: number;
  windowMs: number;
  byModule: { module: string; selfMs: number; share: number }[];
  topFunctions: { name: string; module: string; where: string; selfMs: number; share: number }[];
  /** svctrail's own functions by inclusive time (themselves and everything they called). */
  topInclusive: { name: string; module: string; where: string; totalMs: number; share: number }[];
}

/** The module a frame belongs to, for grouping. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? `V8 ${functionName}` : '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (path.startsWith('node:')) return `node:${path.slice(5).split('/').slice(0, 2).join('/')}`;
  const dist = path.lastIndexOf('/dist/');
  if (dist >= 0) {
    const parts = path.slice(dist + '/dist/'.length).split('/');
    return `svctrail ${parts.length > 1 ? parts.slice(0, Math.min(2, parts.length - 1)).join('/') : parts[0]}`;
  }
  return path.split('/').slice(-2).join('/');
}

/** `windowUs`: [from, to] in the profile's clock (µs); the whole profile when absent or empty. */
export function summarizeProfile(profile: CpuProfile, top = 25, windowUs?: [number, number]): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  const tally = (from: number, to: number) => {
    selfUs.clear();
    let t = profile.startTime;
    let total = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i] ?? 0;
      // Each sample stands for the interval up to the next one.
      const dt = profile.timeDeltas[i + 1] ?? 0;
      if (t < from || t > to) continue;
      selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
      total += dt;
    }
    return total;
  };
  let totalUs = windowUs ? tally(windowUs[0], windowUs[1]) : 0;
  let window = windowUs;
  if (!totalUs) {
    window = [profile.startTime, profile.endTime];
    totalUs = tally(window[0], window[1]);
  }
  const modules = new Map<string, number>();
  const functions = new Map<string, { name: string; module: string; where: string; us: number }>();
  const inclusive = new Map<string, { name: string; module: string; where: string; us: number }>();
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    // Each svctrail function on the sample's stack once (recursion counted once).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      const module = moduleOf(frame.url, frame.functionName);
      // Not svctrail's, or a module's top-level code (its loading, not a request's work).
      if (!module.startsWith('svctrail ') || (!frame.functionName && frame.lineNumber === 0)) continue;
      const where = `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
      const key = `${frame.functionName}\u0000${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = inclusive.get(key) ?? { name: frame.functionName || '(anonymous)', module, where, us: 0 };
      entry.us += us;
      inclusive.set(key, entry);
    }
    const { callFrame: f } = byId.get(id)!;
    const module = moduleOf(f.url, f.functionName);
    if (f.functionName === '(idle)') idleUs += us;
    modules.set(module, (modules.get(module) ?? 0) + us);
    const where = f.url ? `${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName}\u0000${where}`;
    const entry = functions.get(key) ?? { name: f.functionName || '(anonymous)', module, where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const busyUs = totalUs - idleUs;
  const share = (us: number) => (busyUs > 0 ? us / busyUs : 0);
  return {
    totalMs: totalUs / 1000,
    busyMs: busyUs / 1000,
    windowMs: (window![1] - window![0]) / 1000,
    byModule: [...modules]
      .filter(([m]) => m !== 'V8 (idle)')
      .sort((a, b) => b[1] - a[1])
      .map(([module, us]) => ({ module, selfMs: us / 1000, share: share(us) })),
    topFunctions: [...functions.values()]
      .filter((f) => f.name !== '(idle)')
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, module: f.module, where: f.where, selfMs: f.us / 1000, share: share(f.us) })),
    topInclusive: [...inclusive.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, module: f.module, where: f.where, totalMs: f.us / 1000, share: share(f.us) })),
  };
}

/** Markdown: self time by module, then the top functions (shares of the busy time). */
export function formatProfileSummary(s: ProfileSummary, modules = 20): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${s.busyMs.toFixed(0)} ms of main-thread time over ${s.windowMs.toFixed(0)} ms (idle ${(s.totalMs - s.busyMs).toFixed(0)} ms left out of the shares). ` +
      'A native call counts in the JavaScript function that made it: an SQLite statement in the function that ran it, ' +
      "COMMIT and its fsync (the thread blocked, not computing) in the group committer's `attempt`.",
    '',
    '| module | self ms | share |',
    '|:--|--:|--:|',
    ...s.byModule.slice(0, modules).map((m) => `| ${m.module} | ${m.selfMs.toFixed(0)} | ${pct(m.share)} |`),
    '',
    '| function | module | where | self ms | share |',
    '|:--|:--|:--|--:|--:|',
    ...s.topFunctions.map((f) => `| ${f.name.replace(/\|/g, '\\|')} | ${f.module} | ${f.where} | ${f.selfMs.toFixed(0)} | ${pct(f.share)} |`),
    '',
    "svctrail's own functions by inclusive time (themselves and all they called, SQLite included):",
    '',
    '| function | module | where | total ms | share |',
    '|:--|:--|:--|--:|--:|',
    ...s.topInclusive.map((f) => `| ${f.name.replace(/\|/g, '\\|')} | ${f.module} | ${f.where} | ${f.totalMs.toFixed(0)} | ${pct(f.share)} |`),
  ];
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node bench/dist/profile-summary.js FILE.cpuprofile [TOP]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${formatProfileSummary(summarizeProfile(profile, Number(process.argv[3] ?? 25))).join('\n')}\n`);
}
