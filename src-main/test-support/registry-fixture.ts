/**
 * The MCP Registry stand-in (e2e/fixtures/registry/registry-server.mjs) as a real process on
 * 127.0.0.1 for one test, stopped when the test ends.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { expectProcessGone, FIXTURES_DIR } from './fixtures';

export interface RegistryFixture {
  /** The base URL to put in the `registryUrl` setting. */
  url: string;
}

/** Starts the registry fixture (`--page-size`, `--fail`…) and resolves once it listens. */
export function startRegistryFixture(args: string[] = []): Promise<RegistryFixture> {
  const child = spawn(process.execPath, [path.join(FIXTURES_DIR, 'registry', 'registry-server.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onTestFinished(async () => {
    child.kill('SIGKILL');
    if (child.pid) await expectProcessGone(child.pid);
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^REGISTRY (\S+)$/m.exec(output);
      if (match) resolve({ url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`registry fixture exited (${code}) before listening: ${output}`)));
  });
}
