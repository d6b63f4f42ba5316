import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, HostCallError, MAX_CALL_BYTES, type HostHandlers } from '@contract';
import { checkCallSize, dispatchCall } from './dispatch';

const calls: unknown[] = [];
// Only the methods these tests call; dispatch never touches the others.
const handlers = {
  getSnapshot: async () => {
    throw new HostCallError('storage', 'disk on fire');
  },
  updateSettings: async (patch) => {
    calls.push(patch);
    return { ...DEFAULT_SETTINGS, ...patch };
  },
} as Partial<HostHandlers> as HostHandlers;

describe('dispatchCall', () => {
  it('refuses unknown methods, including inherited object keys', async () => {
    for (const method of ['nope', '__proto__', 'constructor', 'toString', 42, null]) {
      const result = await dispatchCall(handlers, method, undefined);
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    }
  });

  it('validates the input before the handler runs and names the bad field', async () => {
    calls.length = 0;
    const result = await dispatchCall(handlers, 'updateSettings', { theme: 5 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!result.ok) {
      expect(result.error.message).toContain('theme');
      expect(result.error.data).toEqual([expect.objectContaining({ path: ['theme'] })]);
    }
    expect(await dispatchCall(handlers, 'updateSettings', { surprise: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await dispatchCall(handlers, 'updateSettings', { anthropicBaseUrl: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(calls).toEqual([]);
  });

  it('passes the parsed input to the handler and returns its value', async () => {
    const result = await dispatchCall(handlers, 'updateSettings', { defaultModel: '  claude-x  ' });
    expect(result).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, defaultModel: 'claude-x' } });
  });

  it('turns a handler failure into the one error shape', async () => {
    expect(await dispatchCall(handlers, 'getSnapshot', undefined)).toEqual({
      ok: false,
      error: { code: 'storage', message: 'disk on fire' },
    });
  });

  it('refuses input to a method that takes none', async () => {
    expect(await dispatchCall(handlers, 'getSnapshot', { extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});

describe('checkCallSize', () => {
  it('accepts up to the limit and refuses beyond it', () => {
    expect(checkCallSize(MAX_CALL_BYTES)).toBeUndefined();
    expect(checkCallSize(MAX_CALL_BYTES + 1)).toMatchObject({ code: 'payload_too_large' });
  });
});
