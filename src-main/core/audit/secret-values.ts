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
  /** The redactors opened so far (what `cache` resolved to), for callers that need not wait a turn. */
  private readonly opened = new Map<string, Redactor>();

  constructor(
    private readonly repo: ServerConfigRepository,
    private readonly secrets: SecretBox,
  ) {}

  get(serverId: string): Promise<Redactor> {
    let redactor = this.cache.get(serverId);
    if (!redactor) {
      const opening: Promise<Redactor> = this.load(serverId)
        .catch(() => PATTERNS_ONLY)
        .then((opened) => {
          // Not when the server was forgotten (or opened anew) meanwhile.
          if (this.cache.get(serverId) === opening) this.opened.set(serverId, opened);
          return opened;
        });
      this.cache.set(serverId, (redactor = opening));
    }
    return redactor;
  }

  /** The server's redactor when it is already open (what `get` resolves to), else undefined. */
  openNow(serverId: string): Redactor | undefined {
    return this.opened.get(serverId);
  }

  /** The configuration may have changed (restart, edit, removal): open again next time. */
  forget(serverId: string): void {
    this.cache.delete(serverId);
    this.opened.delete(serverId);
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
