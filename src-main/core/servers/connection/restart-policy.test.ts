import { describe, expect, it } from 'vitest';
import { REMOTE_RESTART, RestartPolicy } from './restart-policy';

describe('RestartPolicy', () => {
  it('backs off exponentially and gives up after maxAttempts', () => {
    const policy = new RestartPolicy({ enabled: true });
    const delays = Array.from({ length: 6 }, (_, i) => policy.onFailure(i)?.delayMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, undefined]);
  });

  it('caps the wait for remote servers and keeps trying for about half an hour', () => {
    const policy = new RestartPolicy({ enabled: true, ...REMOTE_RESTART });
    const delays = Array.from({ length: 31 }, (_, i) => policy.onFailure(i)?.delayMs);
    expect(delays.slice(0, 8)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(delays[29]).toBe(60000);
    expect(delays[30]).toBeUndefined();
    const totalMinutes = delays.reduce<number>((sum, d) => sum + (d ?? 0), 0) / 60_000;
    expect(totalMinutes).toBeGreaterThan(25);
    expect(totalMinutes).toBeLessThan(30);
  });

  it('does nothing when disabled', () => {
    expect(new RestartPolicy().onFailure(0)).toBeUndefined();
  });

  it('counts a quick crash after a restart as consecutive, but resets after a stable run', () => {
    const policy = new RestartPolicy({ enabled: true, baseDelayMs: 10, maxAttempts: 2, stableAfterMs: 1000 });
    policy.noteReady(0);
    expect(policy.onFailure(5)).toEqual({ attempt: 1, delayMs: 10 });
    policy.noteReady(20);
    expect(policy.onFailure(30)).toEqual({ attempt: 2, delayMs: 20 });
    policy.noteReady(60);
    expect(policy.onFailure(70)).toBeUndefined();
    policy.reset();
    policy.noteReady(100);
    expect(policy.onFailure(2000)).toEqual({ attempt: 1, delayMs: 10 });
    policy.noteReady(2100);
    expect(policy.onFailure(5000)).toEqual({ attempt: 1, delayMs: 10 });
  });
});
