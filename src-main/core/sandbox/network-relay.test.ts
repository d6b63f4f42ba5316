import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { proxySocketPath, relayRuntime } from './network-relay';

describe('relayRuntime', () => {
  it("runs on this process's own runtime: Electron's binary is told to act as Node, Node needs nothing", () => {
    expect(relayRuntime(process.execPath, false)).toEqual({
      program: fs.realpathSync(process.execPath),
      folder: path.dirname(fs.realpathSync(process.execPath)),
      env: {},
    });
    expect(relayRuntime(process.execPath, true).env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });

  it('follows a link to the real program, whose folder is what the sandbox mounts', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-relay-')));
    try {
      fs.symlinkSync(process.execPath, path.join(dir, 'patchbay'));
      expect(relayRuntime(path.join(dir, 'patchbay'), true).folder).toBe(path.dirname(fs.realpathSync(process.execPath)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('proxySocketPath', () => {
  it('keeps the socket in the scratch folder unless that path is too long for a unix socket', () => {
    expect(proxySocketPath('/home/ana/.config/Patchbay/sandboxes/s1')).toBe('/home/ana/.config/Patchbay/sandboxes/s1/proxy.sock');
    const long = `/home/${'a'.repeat(60)}/.config/Patchbay/sandboxes/0f8e2d2c-5a7e-4bd9-9a57-1d2f2b7c9e11`;
    const moved = proxySocketPath(long, '/tmp');
    expect(moved).toMatch(/^\/tmp\/patchbay-proxy-[0-9a-f]{16}\.sock$/);
    expect(proxySocketPath(long, '/tmp')).toBe(moved);
  });
});
