import { FixedClock } from '../shared/clock';
import { BrowserSessions, hashOf } from './browser-sessions';

describe('BrowserSessions', () => {
  const user = { name: 'alice', groups: ['devs', 'system:authenticated'] };
  const setup = () => {
    const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    let n = 0;
    const sessions = new BrowserSessions(clock, { idleMs: 60_000, absoluteMs: 300_000 }, () => Buffer.alloc(32, ++n));
    return { clock, sessions };
  };

  it('keeps only the SHA-256 of the id, and the id finds the user', () => {
    const { sessions } = setup();
    const id = sessions.create(user);
    expect(sessions.storedKeys()).toEqual([hashOf(id)]);
    expect(sessions.storedKeys().join()).not.toContain(id);
    expect(sessions.touch(id)).toEqual(user);
    expect(sessions.touch(`${id}x`)).toBeNull();
  });

  it('expires after the idle time without use, and use resets the idle timer', () => {
    const { clock, sessions } = setup();
    const id = sessions.create(user);
    clock.advance(59_999);
    expect(sessions.touch(id)).toEqual(user);
    clock.advance(59_999);
    expect(sessions.touch(id)).toEqual(user);
    clock.advance(60_000);
    expect(sessions.touch(id)).toBeNull();
    expect(sessions.storedKeys()).toEqual([]);
  });

  it('expires at the absolute limit however busy', () => {
    const { clock, sessions } = setup();
    const id = sessions.create(user);
    for (let t = 0; t < 300_000 - 30_000; t += 30_000) {
      clock.advance(30_000);
      expect(sessions.touch(id)).toEqual(user);
    }
    clock.advance(30_000);
    expect(sessions.touch(id)).toBeNull();
  });

  it('sign-out deletes the session', () => {
    const { sessions } = setup();
    const id = sessions.create(user);
    const other = sessions.create({ name: 'bob', groups: [] });
    sessions.delete(id);
    expect(sessions.touch(id)).toBeNull();
    expect(sessions.touch(other)?.name).toBe('bob');
  });
});
