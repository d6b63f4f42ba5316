import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from './servers';

const made: string[] = [];
afterEach(() => {
  for (const file of made.splice(0)) fs.rmSync(file, { recursive: true, force: true });
});

describe('bench scripts run as built (as-built.ts)', () => {
  it('re-runs a script started with tsx as its bundle, with the same arguments and node flags, and exits with its status', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-as-built-'));
    const name = `as-built-probe-${process.pid}`;
    const script = path.join(dir, `${name}.ts`);
    made.push(dir, path.join(REPO, '.cache', 'bench', `${name}.mjs`));
    fs.writeFileSync(
      script,
      [
        `import ${JSON.stringify(path.join(REPO, 'bench/lib/as-built-entry.ts'))};`,
        `const probe: { args: string[]; gc: string } = { args: process.argv.slice(2), gc: typeof globalThis.gc };`,
        `console.log(JSON.stringify({ ...probe, file: process.argv[1] }));`,
        `process.exit(3);`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', script, 'one', '--two'], { cwd: REPO, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(3);
    const lines = run.stdout.trim().split('\n');
    // Printed once: by the bundle, not also by the TypeScript original.
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      args: ['one', '--two'],
      gc: 'function',
      file: path.join(REPO, '.cache', 'bench', `${name}.mjs`),
    });
  });
});
