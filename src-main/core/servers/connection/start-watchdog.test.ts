import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StartWatchdog } from './start-watchdog';

describe('StartWatchdog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('expires after the idle timeout when nothing happens', () => {
    const onExpire = vi.fn();
    new StartWatchdog({ idleTimeoutMs: 1000, maxTotalMs: 10_000, onExpire });
    vi.advanceTimersByTime(999);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledWith('idle');
  });

  it('keeps waiting while there is output, says so once, and expires after output stops', () => {
    const onExpire = vi.fn();
    const onExtended = vi.fn();
    const dog = new StartWatchdog({ idleTimeoutMs: 1000, maxTotalMs: 10_000, onExpire, onExtended });
    for (let i = 0; i < 30; i++) {
      vi.advanceTimersByTime(100);
      dog.activity();
    }
    expect(onExpire).not.toHaveBeenCalled();
    expect(onExtended).toHaveBeenCalledTimes(1);
    expect(dog.wasExtended).toBe(true);
    vi.advanceTimersByTime(999);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledWith('idle');
  });

  it('never waits past the total cap', () => {
    const onExpire = vi.fn();
    const startedAt = Date.now();
    const dog = new StartWatchdog({ idleTimeoutMs: 1000, maxTotalMs: 2500, onExpire });
    for (let i = 0; i < 30 && onExpire.mock.calls.length === 0; i++) {
      vi.advanceTimersByTime(100);
      dog.activity();
    }
    expect(onExpire).toHaveBeenCalledWith('total');
    expect(Date.now() - startedAt).toBe(2500);
  });

  it('does nothing once stopped', () => {
    const onExpire = vi.fn();
    new StartWatchdog({ idleTimeoutMs: 1000, maxTotalMs: 2000, onExpire }).stop();
    vi.advanceTimersByTime(5000);
    expect(onExpire).not.toHaveBeenCalled();
  });
});
