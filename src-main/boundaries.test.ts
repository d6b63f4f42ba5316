import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rule of ARCHITECTURE.md, checked by reading the sources (lint says the same, but this
 * holds even where lint is skipped): the core, web mode and the contract never import 'electron'; the
 * renderer never imports Node built-ins or 'electron'.
 */
const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
  return found;
}

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

describe('dependency boundaries', () => {
  it('finds the imports it is meant to police (the checker itself works)', () => {
    expect(importsOf('src-main/electron/ipc.ts')).toContain('electron');
    expect(importsOf('src-main/web/cli.ts')).toContain('node:path');
  });

  it('keeps electron out of the core, the desktop logic, web mode and the contract', () => {
    const files = [...sourceFiles('src-main/core'), ...sourceFiles('src-main/desktop'), ...sourceFiles('src-main/web'), 'src-preload/contract.ts', ...sourceFiles('src-preload/contract')];
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.filter((file) => importsOf(file).some((spec) => spec === 'electron' || spec.startsWith('electron/')));
    expect(offenders).toEqual([]);
  });

  it('keeps Node and electron out of the renderer and the contract', () => {
    const files = [...sourceFiles('src-renderer'), 'src-preload/contract.ts', ...sourceFiles('src-preload/contract')];
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec === 'electron' || nodeBuiltins.has(spec) || /src-main\//.test(spec))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
