/** The MCP Registry stand-in (e2e/fixtures/registry/registry-server.mjs) as a child process for one test. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface RegistryProcess {
  url: string;
  stop(): Promise<void>;
}

export function startRegistry(args: string[] = []): Promise<RegistryProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'e2e', 'fixtures', 'registry', 'registry-server.mjs'), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^REGISTRY (\S+)$/m.exec(output);
      if (match) resolve({ url: match[1], stop });
    });
    child.once('exit', (code) => reject(new Error(`registry fixture exited (${code}): ${output}`)));
  });
}
