/** Writes server configs into a data directory the way `addServer` stores them, without starting them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerInputSchema } from '../../src-preload/contract';
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
  const { db } = openDatabase(dataDir);
  try {
    const repo = new ServerConfigRepository(db);
    specs.forEach((spec, i) =>
      repo.insert(
        {
          ...ServerInputSchema.parse(serverInput(spec, i, true)),
          env: [],
          headers: [],
          oauthClientSecret: undefined,
          oauthPrivateKey: undefined,
          idpClientSecret: undefined,
        },
        new Date(),
      ),
    );
  } finally {
    db.close();
  }
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-'));
}
