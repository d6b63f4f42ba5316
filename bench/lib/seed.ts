/** Writes server configs into a data directory the way `addServer` stores them, without starting them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSandbox, ServerInputSchema } from '@contract';
import { ServerConfigRepository } from '../../src-main/core/server-config/server-config-repository';
import { openDatabase } from '../../src-main/core/store/database';
import type { ServerSpec } from './servers';

/** The `addServer` input for the i-th server of a fleet. */
export const serverInput = (spec: ServerSpec, i: number, enabled: boolean) => ({
  name: `${spec.kind}-${i + 1}`,
  command: spec.command,
  args: spec.args,
  enabled,
});

/** Stores `specs` as enabled configs in `dataDir` (created if needed). */
export function seedInto(dataDir: string, specs: ServerSpec[]): void {
  seedServers(
    dataDir,
    specs.map((spec, i) => serverInput(spec, i, true)),
  );
}

/** Stores these `addServer` inputs as configs in `dataDir` (created if needed). */
export function seedServers(dataDir: string, inputs: { name: string; command: string; args: string[]; enabled?: boolean }[]): void {
  const { db } = openDatabase(dataDir);
  try {
    const repo = new ServerConfigRepository(db);
    for (const input of inputs)
      repo.insert(
        {
          ...ServerInputSchema.parse(input),
          // Seeded servers run unsandboxed, as the bench's hosts keep them (comparable baselines).
          sandbox: defaultSandbox(false),
          env: [],
          headers: [],
          oauthClientSecret: undefined,
          oauthPrivateKey: undefined,
          idpClientSecret: undefined,
        },
        new Date(),
      );
  } finally {
    db.close();
  }
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-'));
}
