/**
 * MCP bundles for tests, packed on the spot with the `mcpb` CLI from the folders in
 * e2e/fixtures/bundles/ (see its README). Free of vitest, so the browser tests use it too.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.join(REPO, 'e2e', 'fixtures');
const MCPB_CLI = path.join(REPO, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

export type BundleFixture = 'notes' | 'secret-key' | 'hostile' | 'oversized';

export interface PackOptions {
  /** Where the .mcpb goes (a new temp folder by default). */
  outDir?: string;
  /** Changes to manifest.json before packing. */
  manifest?: (manifest: Record<string, unknown>) => void;
  /** Extra files to add, by path inside the bundle. */
  files?: Record<string, string | Buffer>;
  /** Files to leave out, by path inside the bundle. */
  omit?: string[];
}

/** Copies the fixture, applies the options, runs `mcpb pack`, and returns the .mcpb path. */
export function packBundle(fixture: BundleFixture, options: PackOptions = {}): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `patchbay-bundle-${fixture}-`));
  const source = path.join(work, fixture);
  fs.cpSync(path.join(FIXTURES, 'bundles', fixture), source, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'lib', 'mini-server.mjs'), path.join(source, 'server', 'mini-server.mjs'));
  if (options.manifest) {
    const file = path.join(source, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    options.manifest(manifest);
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  }
  for (const [name, content] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(source, name)), { recursive: true });
    fs.writeFileSync(path.join(source, name), content);
  }
  for (const name of options.omit ?? []) fs.rmSync(path.join(source, name), { force: true });
  const outDir = options.outDir ?? work;
  const out = path.join(outDir, `${fixture}.mcpb`);
  execFileSync(process.execPath, [MCPB_CLI, 'pack', source, out], { stdio: 'pipe' });
  if (!options.outDir) fs.rmSync(source, { recursive: true, force: true });
  return out;
}

/**
 * Renames one entry inside a zip in place (local header and central directory), as a hostile archive
 * would name it; both names must have the same length.
 */
export function renameZipEntry(file: string, from: string, to: string): void {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('names must have the same length');
  const bytes = fs.readFileSync(file);
  const needle = Buffer.from(from);
  let found = 0;
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
    Buffer.from(to).copy(bytes, at);
    found++;
  }
  if (found < 2) throw new Error(`${from} appears ${found} times in ${file}; expected its local and central headers`);
  fs.writeFileSync(file, bytes);
}

/** Every file below `dir`, relative, sorted (what a test compares to prove nothing was written). */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A zip made by hand, for archives `mcpb pack` refuses to make (a manifest that does not validate):
 * the bundle fixture's files with `manifest.json` replaced by `manifest`.
 */
export async function handMadeBundle(fixture: BundleFixture, manifest: string): Promise<string> {
  const dir = path.join(FIXTURES, 'bundles', fixture);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bundle-hand-')), `${fixture}.mcpb`);
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(manifest), 'manifest.json');
  for (const file of listFiles(dir).filter((name) => name !== 'manifest.json'))
    zip.addFile(path.join(dir, file), file.split(path.sep).join('/'));
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(out)).on('close', resolve).on('error', reject);
  });
  return out;
}
