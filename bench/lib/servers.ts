/** The servers the bench runs, as command + args, the same for both arms. */
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerSpec {
  /** Short label used in names. */
  kind: 'everything' | 'echo' | 'ignores-sigterm' | 'big-result';
  command: string;
  args: string[];
}

const fixture = (name: string) => path.join(REPO, 'e2e/fixtures', name);
const node = process.execPath;

export const SPECS: Record<ServerSpec['kind'], ServerSpec> = {
  everything: {
    kind: 'everything',
    command: node,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  },
  echo: { kind: 'echo', command: node, args: [fixture('echo.mjs')] },
  'ignores-sigterm': { kind: 'ignores-sigterm', command: node, args: [fixture('ignores-sigterm.mjs')] },
  'big-result': { kind: 'big-result', command: node, args: [fixture('big-result.mjs')] },
};

/** The server most metrics use: server-everything, or echo.mjs with `--light`. */
export function standardSpec(light: boolean): ServerSpec {
  return light ? SPECS.echo : SPECS.everything;
}

/** `n` copies of the standard server; with `withStubborn`, the last one ignores SIGTERM. */
export function fleetSpecs(n: number, light: boolean, withStubborn = false): ServerSpec[] {
  const specs = Array.from({ length: n }, () => standardSpec(light));
  if (withStubborn && n > 0) specs[n - 1] = SPECS['ignores-sigterm'];
  return specs;
}

/** The 10 MB tool of big-result.mjs (no arguments). */
export const BIG_TOOL = { name: 'big', bytes: 10 * 1024 * 1024 };
