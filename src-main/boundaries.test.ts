import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of docs/architecture.md, checked by path on the sources (lint and
 * the TypeScript projects say some of it too; this holds wherever the tests run):
 *
 * - the core never imports 'electron', web mode or the Electron glue; `core/host.ts` is its top: only
 *   tests import it (and what sits above the core: web mode, the Electron entry, test-support);
 * - app code never imports a `test-support/` folder, and a core area's test helpers never reach into
 *   another area's (shared helpers live in `src-main/test-support/`);
 * - the contract imports nothing outside itself but packages; the renderer never imports Node,
 *   'electron' or main-process code.
 */
const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** Every module specifier a file imports (static, dynamic, require, side-effect, re-export). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
  return found;
}

/** A relative specifier as a repository path (no extension resolution needed: paths are compared by prefix). */
function resolved(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return path.relative(root, path.resolve(root, path.dirname(file), spec));
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const inTestSupport = (file: string) => file.split(path.sep).includes('test-support');
/** The core area a path belongs to (`servers`, `tools`…), or '' for files at the core's top. */
const coreArea = (file: string) => {
  const rest = path.relative(path.join('src-main', 'core'), file).split(path.sep);
  return rest.length > 1 ? rest[0] : '';
};
const underCore = (file: string) => file.startsWith(path.join('src-main', 'core') + path.sep);

/** `file imports target` lines for every relative import of `files` that `forbidden` says is wrong. */
function offenders(files: string[], forbidden: (file: string, target: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file).flatMap((spec) => {
      const target = resolved(file, spec);
      return target !== undefined && forbidden(file, target) ? [`${file} imports ${spec}`] : [];
    }),
  );
}

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const contractFiles = () => ['src-preload/contract.ts', ...sourceFiles('src-preload/contract')];

describe('dependency boundaries', () => {
  it('finds the imports it is meant to police (the checker itself works)', () => {
    expect(importsOf('src-main/electron/ipc.ts')).toContain('electron');
    expect(importsOf('src-main/web/cli.ts')).toContain('node:path');
    expect(resolved('src-main/core/tools/tool-router.ts', '../host')).toBe(path.join('src-main', 'core', 'host'));
    // A made-up core file importing the host and another area's helpers is caught by the rules below.
    const bad = 'src-main/core/tools/imaginary.ts';
    expect(coreHostRule(bad, resolved(bad, '../host')!)).toBe(true);
    expect(testSupportRule(bad, resolved(bad, './test-support/fixtures')!)).toBe(true);
    expect(
      testSupportRule('src-main/core/tools/tools.test.ts', resolved('src-main/core/tools/tools.test.ts', './test-support/fixtures')!),
    ).toBe(false);
  });

  it('keeps electron out of the core, the desktop logic, web mode and the contract', () => {
    const files = [...sourceFiles('src-main/core'), ...sourceFiles('src-main/desktop'), ...sourceFiles('src-main/web'), ...contractFiles()];
    expect(files.length).toBeGreaterThan(5);
    const found = files.filter((file) => importsOf(file).some((spec) => spec === 'electron' || spec.startsWith('electron/')));
    expect(found).toEqual([]);
  });

  it('keeps the core below web mode and the Electron glue', () => {
    const web = path.join('src-main', 'web');
    const glue = path.join('src-main', 'electron');
    const found = offenders(
      sourceFiles('src-main/core'),
      (_file, target) => target.startsWith(web) || target.startsWith(glue) || target === path.join('src-main', 'index'),
    );
    expect(found).toEqual([]);
  });

  it('keeps core/host.ts the top of the core: only tests import it', () => {
    expect(offenders(sourceFiles('src-main/core'), coreHostRule)).toEqual([]);
  });

  it('keeps test helpers out of app code, and each core area to its own helpers', () => {
    const files = [...sourceFiles('src-main'), ...sourceFiles('src-preload'), ...sourceFiles('src-renderer')];
    expect(offenders(files, testSupportRule)).toEqual([]);
  });

  it('keeps the contract self-contained: packages and its own modules only', () => {
    const contract = path.join('src-preload', 'contract');
    const found = offenders(contractFiles(), (_file, target) => target !== contract && !target.startsWith(contract + path.sep));
    expect(found).toEqual([]);
  });

  it('keeps Node, electron and main-process code out of the renderer and the contract', () => {
    const files = [...sourceFiles('src-renderer'), ...contractFiles()];
    const found = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec === 'electron' || nodeBuiltins.has(spec) || /src-main\//.test(spec))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(found).toEqual([]);
  });
});

/** A core file other than a test importing `core/host`. */
function coreHostRule(file: string, target: string): boolean {
  return underCore(file) && !isTest(file) && target === path.join('src-main', 'core', 'host');
}

/**
 * App code importing any `test-support/`, or a core area's helpers or tests importing another area's
 * `test-support/` (a helper two areas need belongs in `src-main/test-support/`; tests may use any
 * area's helpers, as they may use any area).
 */
function testSupportRule(file: string, target: string): boolean {
  if (!inTestSupport(target)) return false;
  if (!isTest(file) && !inTestSupport(file)) return true;
  if (isTest(file) || !underCore(file) || !underCore(target)) return false;
  return coreArea(file) !== coreArea(target);
}
