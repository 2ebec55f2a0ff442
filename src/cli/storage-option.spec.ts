import { redactedUrl } from '../store/postgres/postgres-database';
import { commandStore, parseStorageChoice } from './storage-option';
import { UsageError } from './usage-error';

describe('parseStorageChoice', () => {
  it('is SQLite without a flag or environment, or when either says sqlite', () => {
    expect(parseStorageChoice(undefined, undefined)).toEqual({ engine: 'sqlite' });
    expect(parseStorageChoice(undefined, '  ')).toEqual({ engine: 'sqlite' });
    expect(parseStorageChoice('sqlite', 'postgres://a@h/db')).toEqual({ engine: 'sqlite' });
    expect(parseStorageChoice(undefined, 'sqlite')).toEqual({ engine: 'sqlite' });
  });

  it('is PostgreSQL for a postgres:// or postgresql:// URL, the flag winning over the environment', () => {
    expect(parseStorageChoice('postgres://u:p@127.0.0.1:5432/db', undefined)).toEqual({ engine: 'postgres', url: 'postgres://u:p@127.0.0.1:5432/db' });
    expect(parseStorageChoice(undefined, 'postgresql://u@h/db')).toEqual({ engine: 'postgres', url: 'postgresql://u@h/db' });
    expect(parseStorageChoice('postgres://flag@h/db', 'postgres://env@h/db')).toEqual({ engine: 'postgres', url: 'postgres://flag@h/db' });
  });

  it('refuses anything else as bad usage, naming where it came from without its password', () => {
    expect(() => parseStorageChoice('mysql://u:secret@h/db', undefined)).toThrow(UsageError);
    expect(() => parseStorageChoice('mysql://u:secret@h/db', undefined)).toThrow(/--storage must be .*mysql:\/\/u:\*\*\*@h\/db/);
    expect(() => parseStorageChoice(undefined, './data')).toThrow(/SVCTRAIL_STORAGE must be/);
    expect(() => parseStorageChoice('postgres://u:secret@[bad', undefined)).toThrow(/not a valid URL: postgres:\/\/u:\*\*\*@\[bad/);
  });
});

describe('commandStore', () => {
  it('is SQLite in --data-dir, ./data by default, or none when the command has no default', () => {
    expect(commandStore({}, undefined)).toEqual({ engine: 'sqlite', dataDir: './data' });
    expect(commandStore({ dataDir: '/srv/d' }, undefined)).toEqual({ engine: 'sqlite', dataDir: '/srv/d' });
    expect(() => commandStore({}, undefined, null)).toThrow(/needs --data-dir/);
  });

  it('is PostgreSQL from the flag or the environment, and refuses a data directory beside it', () => {
    expect(commandStore({ storage: 'postgres://h/db' }, undefined)).toEqual({ engine: 'postgres', url: 'postgres://h/db' });
    expect(commandStore({}, 'postgres://h/db', null)).toEqual({ engine: 'postgres', url: 'postgres://h/db' });
    expect(() => commandStore({ storage: 'postgres://h/db', dataDir: './data' }, undefined)).toThrow(/--data-dir is for the SQLite store/);
    expect(() => commandStore({ dataDir: './data' }, 'postgres://h/db')).toThrow(UsageError);
    // --storage sqlite overrides the environment's URL, so the data directory is used.
    expect(commandStore({ storage: 'sqlite', dataDir: 'd' }, 'postgres://h/db')).toEqual({ engine: 'sqlite', dataDir: 'd' });
  });
});

describe('redactedUrl', () => {
  it('masks the password only', () => {
    expect(redactedUrl('postgres://u:secret@h:5432/db')).toBe('postgres://u:***@h:5432/db');
    expect(redactedUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
  });
});
