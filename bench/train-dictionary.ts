// `npm run bench:dictionary`: the preset dictionary of the stored-text codec
// (src/store/stored-text-codec.ts), trained on the texts svctrail stores for Services: the objects
// and patches of revisions and the managedFields a compaction keeps, from two histories of the
// bench generator (seed 7, which no bench dataset uses: one with field ownership recorded, as
// every write through the API records it, one without, as the bench datasets are).
//
// The selection is FASTCOVER's (zstd's dictionary builder, in its simplest form): the training
// texts cut into as many epochs as the dictionary has segments, from each epoch the segment of
// SEGMENT bytes whose 8-byte substrings are the most frequent over all the texts, each substring
// counted once (a chosen segment's substrings score nothing afterwards); the segments in
// ascending score, so the most useful are the nearest to the text (deflate's shorter distances).
//
// The dictionary of a format byte never changes (every row written with it decodes with it): a
// new one is written as the next format's, with `--name`, and the codec given that byte. The
// figures behind the size and the segment length are in docs/history.md ("Compact encoding").
//
// usage: node bench/dist/train-dictionary.js [--out FILE] [--name CONSTANT] [--size BYTES] [--segment BYTES] [--events N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { generateDataset } from './generate-data';
import { ROOT, real } from './real';
import { Rng } from './rng';

const D = 8;

/** What svctrail stores of each revision of a generated history (the objects and patches, and the managedFields a compaction keeps). */
function storedTexts(fieldManagers: boolean, events: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'svctrail-dictionary-'));
  try {
    generateDataset({ out: dir, events, services: 1000, namespaces: 10, seed: 7, fieldManagers });
    const db = new Database(join(dir, 'svctrail.db'), { readonly: true });
    try {
      // The projections (dist/) store them encoded: read back as the server reads them.
      const { decodeStoredText } = real.storedTextCodec();
      const rows = db.prepare('SELECT object, patch FROM service_revisions ORDER BY uid, resource_version').all() as { object: string | Buffer; patch: string | Buffer }[];
      const out: string[] = [];
      for (const row of rows) {
        const object = decodeStoredText(row.object);
        out.push(object, decodeStoredText(row.patch));
        const managed = (JSON.parse(object) as { metadata: { managedFields?: unknown } }).metadata.managedFields;
        if (managed) out.push(JSON.stringify(managed));
      }
      return out;
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The data of every event of a generated history (what packed_data holds, src/store/packed-event-data.ts), read back as the server reads it. */
function eventDataTexts(fieldManagers: boolean, events: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'svctrail-dictionary-'));
  try {
    generateDataset({ out: dir, events, services: 1000, namespaces: 10, seed: 7, fieldManagers });
    const db = new Database(join(dir, 'svctrail.db'), { readonly: true });
    try {
      const { eventDataText } = real.packedEventData();
      const rows = db.prepare('SELECT data AS plainData, packed_data AS packedData FROM events ORDER BY position').all() as { plainData: string; packedData: Buffer | null }[];
      return rows.map((row) => eventDataText(row));
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** FASTCOVER's selection (above): `size` bytes of the texts' most frequent segments, the best last. */
export function trainDictionary(texts: readonly string[], size: number, segment: number): Buffer {
  const data = Buffer.from(texts.join(''));
  const buckets = 1 << 20;
  const frequency = new Uint32Array(buckets);
  const hashes = new Uint32Array(Math.max(0, data.length - D + 1));
  for (let i = 0; i < hashes.length; i++) {
    let h = 0;
    for (let j = 0; j < D; j++) h = (Math.imul(h, 31) + data[i + j]) >>> 0;
    hashes[i] = h & (buckets - 1);
    frequency[hashes[i]]++;
  }
  const segments = Math.floor(size / segment);
  const epoch = Math.floor(data.length / segments);
  const chosen: { score: number; bytes: Buffer }[] = [];
  for (let e = 0; e < segments; e++) {
    const end = Math.min((e + 1) * epoch, data.length - segment);
    let best = -1;
    let bestScore = -1;
    for (let start = e * epoch; start < end; start++) {
      let score = 0;
      for (let j = start; j <= start + segment - D; j++) score += frequency[hashes[j]];
      if (score > bestScore) [best, bestScore] = [start, score];
    }
    if (best < 0) continue;
    for (let j = best; j <= best + segment - D; j++) frequency[hashes[j]] = 0;
    chosen.push({ score: bestScore, bytes: data.subarray(best, best + segment) });
  }
  chosen.sort((a, b) => a.score - b.score);
  return Buffer.concat(chosen.map((c) => c.bytes)).subarray(-size);
}

/** The dictionary as a TypeScript module: printable ASCII lines (the texts are JSON), else base64. */
function moduleText(dictionary: Buffer, name: string, command: string, format: string, about: string): string {
  const ascii = dictionary.every((b) => b >= 0x20 && b < 0x7f);
  const chunks: string[] = [];
  const text = ascii ? dictionary.toString('latin1') : dictionary.toString('base64');
  for (let i = 0; i < text.length; i += 120) chunks.push(text.slice(i, i + 120));
  const literal = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return `// Generated by \`${command}\` (bench/train-dictionary.ts): the preset dictionary of the stored-text
// codec's format ${format} (src/store/stored-text-codec.ts), ${dictionary.length} bytes of ${about}.
// Never edited nor regenerated in place: every row written with it decodes with it.
export const ${name} = Buffer.from(
  [
${chunks.map((c) => `    ${literal(c)},`).join('\n')}
  ].join(''),
  '${ascii ? 'latin1' : 'base64'}',
);
`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(ROOT, 'src', 'store', 'stored-text-dictionary.ts') },
      name: { type: 'string', default: 'STORED_TEXT_DICTIONARY_1' },
      size: { type: 'string', default: '8192' },
      segment: { type: 'string', default: '200' },
      events: { type: 'string', default: '10000' },
      // revisions: a revision's object and patch, a compaction's managedFields; events: an event's data.
      texts: { type: 'string', default: 'revisions' },
      format: { type: 'string', default: '1' },
    },
  });
  const events = Number(values.events);
  const read = values.texts === 'events' ? eventDataTexts : storedTexts;
  const texts = [...read(true, events), ...read(false, events)];
  // The epochs are slices of the whole: shuffled (seeded), each holds texts of every kind.
  const rng = new Rng(7);
  for (let i = texts.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [texts[i], texts[j]] = [texts[j], texts[i]];
  }
  const dictionary = trainDictionary(texts.slice(0, 8000), Number(values.size), Number(values.segment));
  const about = values.texts === 'events' ? "the events' data svctrail stores" : 'the texts svctrail stores for\n// Services';
  const command = `npm run bench:dictionary${values.texts === 'events' ? ` -- --texts events --size ${values.size} --segment ${values.segment} --format ${values.format} --name ${values.name}` : ''}`;
  writeFileSync(values.out, moduleText(dictionary, values.name, command, values.format, about));
  process.stdout.write(`${values.out}: ${dictionary.length} bytes from ${texts.length} texts\n`);
}

if (require.main === module) main();
