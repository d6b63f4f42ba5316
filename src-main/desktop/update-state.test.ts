import { describe, expect, it } from 'vitest';
import type { UpdateState } from '@contract';
import { describeUpdateError, mayCheck, nextUpdateState, type UpdateEvent } from './update-state';

const AT = '2026-03-01T10:00:00.000Z';

function run(start: UpdateState, ...events: UpdateEvent[]): UpdateState {
  return events.reduce(nextUpdateState, start);
}

describe('update state machine', () => {
  it('off until turned on; then check, download with progress, ready; installs on quit once the user agrees', () => {
    const off: UpdateState = { status: 'off' };
    expect(run(off, { type: 'checking' }, { type: 'available', version: '1.2.0' })).toEqual(off);
    expect(
      run(off, { type: 'turned-on' }, { type: 'checking' }, { type: 'available', version: '1.2.0' }, { type: 'progress', percent: 41.6 }),
    ).toEqual({ status: 'downloading', version: '1.2.0', percent: 42 });
    const ready = run(
      off,
      { type: 'turned-on' },
      { type: 'checking' },
      { type: 'available', version: '1.2.0' },
      { type: 'downloaded', version: '1.2.0' },
    );
    expect(ready).toEqual({ status: 'ready', version: '1.2.0', installOnQuit: false });
    expect(nextUpdateState(ready, { type: 'install-on-quit' })).toEqual({ status: 'ready', version: '1.2.0', installOnQuit: true });
  });

  it('says when the feed has nothing newer, and when a check failed', () => {
    const idle: UpdateState = { status: 'idle' };
    expect(run(idle, { type: 'checking' }, { type: 'not-available', at: AT })).toEqual({ status: 'up-to-date', checkedAt: AT });
    expect(run(idle, { type: 'checking' }, { type: 'error', message: 'cannot reach the update feed', at: AT })).toEqual({
      status: 'error',
      message: 'cannot reach the update feed',
      at: AT,
    });
  });

  it('keeps a downloaded update through later checks and failures; turning updates off forgets it', () => {
    const ready: UpdateState = { status: 'ready', version: '2.0.0', installOnQuit: true };
    expect(run(ready, { type: 'checking' }, { type: 'error', message: 'offline', at: AT }, { type: 'not-available', at: AT })).toEqual(
      ready,
    );
    expect(nextUpdateState(ready, { type: 'turned-off' })).toEqual({ status: 'off' });
  });

  it('a check during a download does not hide the download; progress outside one is ignored', () => {
    const downloading: UpdateState = { status: 'downloading', version: '1.1.0', percent: 10 };
    expect(nextUpdateState(downloading, { type: 'checking' })).toEqual(downloading);
    expect(nextUpdateState({ status: 'idle' }, { type: 'progress', percent: 50 })).toEqual({ status: 'idle' });
    expect(nextUpdateState(downloading, { type: 'progress', percent: 250 })).toEqual({ ...downloading, percent: 100 });
  });

  it('unsupported wins over everything, and the switch cannot turn it into off', () => {
    const unsupported = nextUpdateState({ status: 'idle' }, { type: 'unsupported', reason: 'development build' });
    expect(unsupported).toEqual({ status: 'unsupported', reason: 'development build' });
    expect(run(unsupported, { type: 'turned-off' }, { type: 'turned-on' }, { type: 'checking' })).toEqual(unsupported);
  });

  it('allows a check only when nothing is under way', () => {
    expect(mayCheck({ status: 'idle' })).toBe(true);
    expect(mayCheck({ status: 'up-to-date', checkedAt: AT })).toBe(true);
    expect(mayCheck({ status: 'error', message: 'x', at: AT })).toBe(true);
    for (const busy of [
      { status: 'off' },
      { status: 'checking' },
      { status: 'downloading', version: '1', percent: 1 },
      { status: 'ready', version: '1', installOnQuit: false },
    ] as UpdateState[]) {
      expect(mayCheck(busy)).toBe(false);
    }
  });
});

describe('describeUpdateError', () => {
  it('says what a known failure means, keeps the first line of the message, and bounds it', () => {
    const offline = Object.assign(new Error('getaddrinfo ENOTFOUND updates.example.com'), { code: 'ENOTFOUND' });
    expect(describeUpdateError(offline)).toBe(
      'cannot reach the update feed (the host name does not resolve) (getaddrinfo ENOTFOUND updates.example.com)',
    );
    const noFile = Object.assign(new Error('Cannot find latest-linux.yml in the latest release artifacts\n<html>…</html>'), {
      code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
    });
    expect(describeUpdateError(noFile)).toBe(
      'the feed has no release information for this platform (Cannot find latest-linux.yml in the latest release artifacts)',
    );
    expect(describeUpdateError(new Error('net::ERR_INTERNET_DISCONNECTED'))).toBe(
      'this computer is offline (net::ERR_INTERNET_DISCONNECTED)',
    );
    expect(describeUpdateError(new Error(`boom ${'x'.repeat(1000)}`)).length).toBe(300);
    expect(describeUpdateError('plain')).toBe('plain');
  });
});
