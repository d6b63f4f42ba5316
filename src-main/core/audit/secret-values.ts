import type { ServerConfigRepository } from '../server-config/server-config-repository';
import type { SecretBox } from '../secrets/secret-box';
import { PATTERNS_ONLY, Redactor, SECRET_KEY } from './redact';

/**
 * A redactor per server that knows the secret values it was configured with (its secret environment
 * variables, and plain ones under secret-looking names). Opened once per server and kept until the
 * server restarts or is removed: a tool call must not pay for unsealing.
 */
export class SecretValues {
  private readonly cache = new Map<string, Promise<Redactor>>();

  constructor(
    private readonly repo: ServerConfigRepository,
    private readonly secrets: SecretBox,
  ) {}

  get(serverId: string): Promise<Redactor> {
    let redactor = this.cache.get(serverId);
    if (!redactor) {
      redactor = this.load(serverId).catch(() => PATTERNS_ONLY);
      this.cache.set(serverId, redactor);
    }
    return redactor;
  }

  /** The configuration may have changed (restart, edit, removal): open again next time. */
  forget(serverId: string): void {
    this.cache.delete(serverId);
  }

  private async load(serverId: string): Promise<Redactor> {
    const server = this.repo.get(serverId);
    if (!server) return PATTERNS_ONLY;
    const values: string[] = [];
    for (const variable of server.env) {
      if (variable.sealed) {
        // A secret that cannot be opened cannot have reached the server either.
        const plain = await this.secrets.open(variable.sealed).catch(() => '');
        if (plain) values.push(plain);
      } else if (SECRET_KEY.test(variable.key) && variable.value) {
        values.push(variable.value);
      }
    }
    return Redactor.forSecrets(values);
  }
}
