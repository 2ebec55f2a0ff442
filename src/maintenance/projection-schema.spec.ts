import Database from 'better-sqlite3';
import { dependentsOutside, projectionSchema, shadowStatements } from './projection-schema';

const SCHEMA = `
  CREATE TABLE \`events\` (position integer PRIMARY KEY);
  CREATE TABLE \`intervals\` (\`id\` integer PRIMARY KEY AUTOINCREMENT, \`uid\` text NOT NULL, \`from_rv\` integer NOT NULL, \`to_rv\` integer);
  CREATE INDEX \`intervals_open\` ON \`intervals\` (\`uid\`) WHERE "intervals"."to_rv" IS NULL;
  CREATE UNIQUE INDEX "intervals_from" ON intervals (from_rv);
  CREATE VIRTUAL TABLE interval_spans USING rtree(id, from_rv, to_rv);
  CREATE TRIGGER interval_spans_insert AFTER INSERT ON intervals
  BEGIN INSERT INTO interval_spans (id, from_rv, to_rv) VALUES (NEW.id, NEW.from_rv, coalesce(NEW.to_rv, 1e30)); END;
`;

describe('projectionSchema and shadowStatements', () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
  });
  afterEach(() => db.close());

  it('finds the tables an owner trigger keeps in step, and the indexes and triggers of both', () => {
    const schema = projectionSchema(db, ['intervals']);
    expect(schema.companions).toEqual(['interval_spans']);
    expect(schema.indexes.map((i) => i.name)).toEqual(['intervals_open', 'intervals_from']);
    expect(schema.triggers.map((t) => t.name)).toEqual(['interval_spans_insert']);
  });

  it('creates shadow copies next to the originals whose trigger fills the shadow R-tree, not the live one', () => {
    const schema = projectionSchema(db, ['intervals']);
    for (const sql of shadowStatements(schema)) db.exec(sql);
    db.prepare('INSERT INTO replay_shadow_intervals (uid, from_rv) VALUES (?, ?)').run('a', 7);
    expect(db.prepare('SELECT id, from_rv FROM replay_shadow_interval_spans').all()).toEqual([{ id: 1, from_rv: 7 }]);
    expect(db.prepare('SELECT count(*) FROM interval_spans').pluck().get()).toBe(0);
    const names = db.prepare(`SELECT type, name, tbl_name FROM sqlite_master WHERE name LIKE 'replay_shadow_%' AND type != 'table' ORDER BY name`).raw().all();
    expect(names).toEqual([
      ['trigger', 'replay_shadow_interval_spans_insert', 'replay_shadow_intervals'],
      ['index', 'replay_shadow_intervals_from', 'replay_shadow_intervals'],
      ['index', 'replay_shadow_intervals_open', 'replay_shadow_intervals'],
    ]);
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'replay_shadow_intervals_open'`).pluck().get()).toContain('"replay_shadow_intervals"."to_rv" IS NULL');
  });

  it('names the views and triggers outside the projections that read a projection table', () => {
    db.exec(`CREATE VIEW open_intervals AS SELECT uid FROM intervals WHERE to_rv IS NULL; CREATE VIEW log AS SELECT * FROM events`);
    expect(dependentsOutside(db, projectionSchema(db, ['intervals']))).toEqual(['view open_intervals']);
  });
});
