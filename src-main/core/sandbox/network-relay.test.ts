import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relayRuntime } from './network-relay';

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
