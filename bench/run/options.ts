// The bench run's options (parsed once from argv) and its constants.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../real';

export const HISTORY = '/apis/history.svctrail.io/v1alpha1';
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const WATCHERS = 100;
export const WATCH_WRITE_RATE = 500; // status PUTs per second, with and without 100 watchers
// Issue 28: the server within 200 MB through the 1M phase and 120 MB at idle; a maintenance
// command within 400 MB on the 1M set.
export const RSS_LIMIT = 200 * 1024 * 1024;
export const IDLE_RSS_LIMIT = 120 * 1024 * 1024;
export const CLI_RSS_LIMIT = 400 * 1024 * 1024;
/** Events between the resume point and the head for watch resume and the feed. */
export const CATCH_UP_EVENTS = 1000;

export const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** The main dataset of a full run (default 1m); `--dataset 10k` runs the full pipeline small. */
    dataset: { type: 'string' },
    /** One case id (e.g. put-many-1): run it against svctrail alone under --cpu-prof and summarise the profile. */
    profile: { type: 'string' },
    /** Runs of every write case per target, interleaved across the targets (default 2; the table shows their median and min–max). */
    repeat: { type: 'string' },
    /** Only these targets (e.g. `svctrail`: its phases alone, to look at one figure again); default all. */
    targets: { type: 'string' },
    // bench/ab.ts (`npm run bench:ab`): a git ref's build against this tree's (or --current REF's).
    base: { type: 'string' },
    current: { type: 'string' },
    events: { type: 'string' },
    services: { type: 'string' },
    seed: { type: 'string' },
    /** svctrail-pg3's replicas share one write leader (--replica-url auto): the others forward their writes to it. */
    'pg3-write-leader': { type: 'boolean', default: false },
    'skip-http': { type: 'boolean', default: false },
    'skip-storage': { type: 'boolean', default: false },
  },
});
export const PROFILE = args.profile;
export const PG3_WRITE_LEADER = args['pg3-write-leader'];
export const PROFILE_DIR = join(ROOT, 'bench', 'results', 'profiles');
export const QUICK = args.quick;
export const DURATION = Number(args.duration ?? (QUICK ? 2 : 8));
export const REPEATS = Math.max(1, Number(args.repeat ?? 2));
export const WARMUP = QUICK ? 0.5 : 1;
/** The 64-connection burst before each "after burst" measurement. */
export const BURST = QUICK ? 2 : 5;
/** Settled: the server wrote nothing to disk and its WAL did not change for this long. */
export const QUIET_MS = QUICK ? 1500 : 3000;
export const SETTLE_LIMIT_MS = 90_000;
export const ONLY = args.only?.split(',').filter(Boolean);
export const wanted = (id: string) => (PROFILE ? id === PROFILE : !ONLY || ONLY.some((o) => id.includes(o)));
const TARGETS = args.targets?.split(',').filter(Boolean);
export const runs = (target: string) => !TARGETS || TARGETS.includes(target);

export const log = (line: string) => process.stdout.write(`${line}\n`);
