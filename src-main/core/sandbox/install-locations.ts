/**
 * Where a server's own code lives, so a sandbox can let it read that (and nothing else of the
 * user's): the program's install prefix (a Node from nvm, a uv-managed Python), the package of a
 * script given as an argument (with the `node_modules` it resolves its imports from), and the caches
 * a package runner installs into (`npx`, `uvx`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isCovered } from './bwrap-args';

/** Read-only and read-write locations a launch needs besides the system's own. */
export interface InstallLocations {
  readOnly: string[];
  readWrite: string[];
  /**
   * The arguments with every existing absolute path replaced by its real path: a path through a
   * symlink (a linked node_modules) leads nowhere inside, where only the target is mounted.
   */
  args: string[];
}

/** Already readable inside every sandbox (see bwrap-args.ts). */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];
/** Files that mark the root of a package or bundle. */
const PACKAGE_MARKERS = ['package.json', 'pyproject.toml', 'manifest.json', 'setup.py'];

/** Package runners and the caches they write to (relative to the home folder). */
const RUNNER_CACHES: Record<string, string[]> = {
  npx: ['.npm'],
  npm: ['.npm'],
  uvx: ['.cache/uv', '.local/share/uv'],
  uv: ['.cache/uv', '.local/share/uv'],
};

export function installLocations(file: string, args: readonly string[], home = os.homedir()): InstallLocations {
  const readOnly = new Set<string>();
  const readWrite = new Set<string>();
  const share = (dir: string | undefined) => {
    if (dir && !isCovered(dir, SYSTEM) && !isHomeOrAbove(dir, home)) readOnly.add(dir);
  };

  const program = realpath(file);
  if (program && !isCovered(program, SYSTEM)) {
    const dir = path.dirname(program);
    // …/bin/node: the whole prefix (its lib/ holds npm and the global packages).
    share(path.basename(dir) === 'bin' ? path.dirname(dir) : (packageRoot(program, home) ?? dir));
  }
  const realArgs = args.map((arg) => (path.isAbsolute(arg) ? (realpath(arg) ?? arg) : arg));
  for (const real of realArgs) {
    if (!path.isAbsolute(real) || !fs.existsSync(real) || isCovered(real, SYSTEM)) continue;
    share(packageRoot(real, home) ?? (isDirectory(real) ? real : path.dirname(real)));
    share(outermostNodeModules(real));
  }
  // A package's node_modules may be a link to elsewhere (workspaces, a shared install): bring the target.
  for (const dir of [...readOnly]) {
    const modules = realpath(path.join(dir, 'node_modules'));
    if (modules && modules !== path.join(dir, 'node_modules')) share(modules);
  }
  for (const cache of RUNNER_CACHES[path.basename(file).replace(/\.(cmd|exe)$/i, '')] ?? []) {
    const dir = path.join(home, cache);
    fs.mkdirSync(dir, { recursive: true });
    readWrite.add(dir);
  }
  return { readOnly: [...readOnly], readWrite: [...readWrite], args: realArgs };
}

/** The nearest folder above `file` that holds a package marker, below the home folder. */
function packageRoot(file: string, home: string): string | undefined {
  let dir = path.dirname(file);
  while (!isHomeOrAbove(dir, home)) {
    if (PACKAGE_MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** `/a/node_modules` for `/a/node_modules/pkg/node_modules/dep/x.js`: where hoisted dependencies are. */
function outermostNodeModules(file: string): string | undefined {
  const at = file.indexOf(`${path.sep}node_modules${path.sep}`);
  return at === -1 ? undefined : file.slice(0, at + `${path.sep}node_modules`.length);
}

/** The home folder itself or one of its ancestors: never shared whole. */
function isHomeOrAbove(dir: string, home: string): boolean {
  return dir === path.parse(dir).root || isCovered(home, [dir]);
}

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
