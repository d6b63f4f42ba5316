import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { waitFor } from '../servers/wait';
import { RotatingLogFile } from './app-log-file';

const files = (dir: string) => fs.readdirSync(dir).sort();

describe('RotatingLogFile', () => {
  it('batches lines and writes them by itself shortly after', async () => {
    const dir = tempDir();
    const log = new RotatingLogFile({ file: path.join(dir, 'logs', 'patchbay.log'), flushMs: 10 });
    log.append('first');
    log.append('second');
    await waitFor(() => fs.existsSync(log.file) && fs.readFileSync(log.file, 'utf8') === 'first\nsecond\n', { what: 'the batch on disk' });
    if (process.platform !== 'win32') expect(fs.statSync(log.file).mode & 0o077).toBe(0); // owner-only, like the other files of ours
    log.close();
    log.append('after close');
    log.flushSync();
    expect(fs.readFileSync(log.file, 'utf8')).toBe('first\nsecond\n');
  });

  it('rotates by size and keeps a few files, newest in the plain name', () => {
    const dir = tempDir();
    const log = new RotatingLogFile({ file: path.join(dir, 'patchbay.log'), maxBytes: 1024, keep: 3 });
    for (let i = 0; i < 40; i++) {
      log.append(`line ${String(i).padStart(2, '0')} ${'x'.repeat(90)}`);
      log.flushSync();
    }
    expect(files(dir)).toEqual(['patchbay.1.log', 'patchbay.2.log', 'patchbay.log']);
    for (const name of files(dir)) expect(fs.statSync(path.join(dir, name)).size).toBeLessThanOrEqual(1024);
    expect(fs.readFileSync(path.join(dir, 'patchbay.log'), 'utf8')).toContain('line 39');
    expect(fs.readFileSync(path.join(dir, 'patchbay.2.log'), 'utf8')).not.toContain('line 00'); // the oldest went
    // The tail reaches into the previous file when the current one is short.
    const tail = log.tail(12);
    expect(tail).toHaveLength(12);
    expect(tail.at(-1)).toMatch(/^line 39/);
    expect(tail[0]).toMatch(/^line 28/);
  });

  it('drops what arrives faster than it is written, and says so in the file', () => {
    const dir = tempDir();
    const log = new RotatingLogFile({ file: path.join(dir, 'patchbay.log'), maxPendingBytes: 100, flushMs: 60_000 });
    for (let i = 0; i < 10; i++) log.append(`flood ${i} ${'y'.repeat(20)}`);
    log.flushSync();
    const text = fs.readFileSync(log.file, 'utf8');
    expect(text.split('\n').filter((l) => l.startsWith('flood'))).toHaveLength(3);
    expect(text).toContain('… 7 log lines were dropped');
  });

  it('never throws when the file cannot be written', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'logs'), 'a file where the folder should be');
    const log = new RotatingLogFile({ file: path.join(dir, 'logs', 'patchbay.log') });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      log.append('lost');
      expect(() => log.flushSync()).not.toThrow();
      log.append('also lost');
      expect(() => log.flushSync()).not.toThrow();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1); // said once, then the file is given up
    expect(log.tail(5)).toEqual([]);
  });
});
