import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../src-main/test-support/temp-dir';
import { changedSince } from './browser-session';

describe('changedSince (is the built web host older than its sources?)', () => {
  it('finds a file modified after the build anywhere under the sources, and nothing when all are older', () => {
    const root = tempDir();
    const nested = path.join(root, 'src', 'features', 'deep');
    fs.mkdirSync(nested, { recursive: true });
    const files = [path.join(root, 'config.ts'), path.join(root, 'src', 'a.ts'), path.join(nested, 'b.tsx')];
    for (const file of files) fs.writeFileSync(file, '');
    const builtAt = Date.parse('2026-11-27T09:00:00Z');
    const before = new Date(builtAt - 60_000);
    for (const file of files) fs.utimesSync(file, before, before);
    const sources = [path.join(root, 'src'), path.join(root, 'config.ts'), path.join(root, 'missing')];
    expect(changedSince(builtAt, sources)).toBe(false);
    const after = new Date(builtAt + 1_000);
    fs.utimesSync(path.join(nested, 'b.tsx'), after, after);
    expect(changedSince(builtAt, sources)).toBe(true);
    fs.utimesSync(path.join(nested, 'b.tsx'), before, before);
    fs.utimesSync(path.join(root, 'config.ts'), after, after);
    expect(changedSince(builtAt, sources)).toBe(true);
  });
});
