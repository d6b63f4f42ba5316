import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The dependency rules (`.dependency-cruiser.mjs`, `npm run deps`) catch what they are meant to: run
 * on a small tree of made-up sources, the real config reports each kind of violation by rule name and
 * passes an import that points down.
 */
const root = path.resolve(import.meta.dirname, '..');
let tree: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  fs.writeFileSync(path.join(tree, file), text);
}

function cruise(...dirs: string[]): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      '--config',
      path.join(root, '.dependency-cruiser.mjs'),
      ...dirs,
    ],
    { cwd: tree, encoding: 'utf8' },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

beforeAll(() => {
  tree = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-deps-'));
  fs.copyFileSync(path.join(root, 'tsconfig.base.json'), path.join(tree, 'tsconfig.base.json'));
  // Points down: chat (rank 8) → servers (rank 1).
  write('src-main/core/chat/uses-servers.ts', "import type { Low } from '../servers/low';\nexport type High = Low;\n");
  write('src-main/core/servers/low.ts', 'export type Low = 1;\n');
  // Points up (type-only still counts): servers → chat; same rank: prompts → chat.
  write('src-main/core/servers/reaches-up.ts', "import type { High } from '../chat/uses-servers';\nexport type Up = High;\n");
  write('src-main/core/prompts/same-rank.ts', "import type { High } from '../chat/uses-servers';\nexport type Same = High;\n");
  // A cycle.
  write('src-main/core/tools/a.ts', "import type { B } from './b';\nexport type A = B | 1;\n");
  write('src-main/core/tools/b.ts', "import type { A } from './a';\nexport type B = A | 2;\n");
  // The renderer reaching past the contract, and the core importing its composition root.
  write('src-renderer/reaches-core.ts', "import type { Low } from '../src-main/core/servers/low';\nexport type R = Low;\n");
  write('src-main/core/host.ts', 'export const host = 1;\n');
  write('src-main/core/tools/uses-host.ts', "import { host } from '../host';\nexport const h = host;\n");
}, 30_000);

afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

describe('dependency rules', () => {
  it('report upward and same-rank area imports, cycles, the renderer past the contract and the core importing host.ts', () => {
    const { status, output } = cruise('src-main', 'src-renderer');
    expect(status, output).not.toBe(0);
    expect(output).toContain('rank-servers: src-main/core/servers/reaches-up.ts → src-main/core/chat/uses-servers.ts');
    expect(output).toContain('rank-prompts: src-main/core/prompts/same-rank.ts → src-main/core/chat/uses-servers.ts');
    expect(output).toMatch(/no-circular: src-main\/core\/tools\/(a|b)\.ts →/);
    expect(output).toContain('renderer-through-contract: src-renderer/reaches-core.ts → src-main/core/servers/low.ts');
    expect(output).toContain('host-is-the-top: src-main/core/tools/uses-host.ts → src-main/core/host.ts');
    // The import that points down is not reported.
    expect(output).not.toContain('src-main/core/chat/uses-servers.ts → src-main/core/servers/low.ts');
  }, 60_000);
});
