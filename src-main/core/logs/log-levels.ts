import { LOG_LEVEL_META_KEY, type Client } from '@modelcontextprotocol/client';
import { HostCallError, type LogLevel, type LogLevelDelivery } from '@contract';
import { extendOutboundMeta } from '../servers/sdk-internals/outbound-meta';
import type { LogPreferences } from './log-preferences';

/** What the level control knows of a server's current session. */
export interface LevelSession {
  name: string;
  client: Client | undefined;
  ready: boolean;
  era: 'legacy' | 'modern' | undefined;
  /** The server declared the `logging` capability (2025 era: it accepts logging/setLevel). */
  declaresLogging: boolean;
}

/**
 * The log level the user chose per server, and how it reaches the server: 2025 era with the `logging`
 * capability, a `logging/setLevel` request (again after every start); 2026 era, the per-request
 * `io.modelcontextprotocol/logLevel` `_meta` key on every request we send.
 */
export class LogLevels {
  private readonly chosen: Map<string, LogLevel>;

  constructor(private readonly preferences: LogPreferences) {
    this.chosen = new Map(Object.entries(preferences.levels()));
  }

  all(): Record<string, LogLevel> {
    return Object.fromEntries(this.chosen);
  }

  get(serverId: string): LogLevel | undefined {
    return this.chosen.get(serverId);
  }

  /** Makes every request of a modern-era session carry the chosen level (legacy traffic is unchanged). */
  installPerRequestLevel(client: Client, serverId: string): void {
    extendOutboundMeta(client, () => {
      const level = this.chosen.get(serverId);
      return level ? { [LOG_LEVEL_META_KEY]: level } : undefined;
    });
  }

  /** Records the choice and delivers it as the session allows. Rejects when the server cannot take one. */
  async set(serverId: string, level: LogLevel, session: LevelSession | undefined): Promise<LogLevelDelivery> {
    let delivery: LogLevelDelivery = 'next-start';
    if (session?.ready && session.client) {
      if (session.era === 'modern') delivery = 'per-request';
      else if (!session.declaresLogging) {
        throw new HostCallError('invalid_input', `Server "${session.name}" does not declare logging, so it takes no log level.`);
      } else {
        try {
          await session.client.setLoggingLevel(level);
        } catch (error) {
          throw new HostCallError('internal', `Server "${session.name}" did not accept the log level: ${(error as Error).message}`);
        }
        delivery = 'logging/setLevel';
      }
    }
    this.chosen.set(serverId, level);
    this.preferences.setLevel(serverId, level);
    return delivery;
  }

  /** At ready: sends the chosen level to a 2025-era server that declares logging. Resolves with what was done. */
  async applyAtStart(serverId: string, session: LevelSession): Promise<LogLevelDelivery | undefined> {
    const level = this.chosen.get(serverId);
    if (!level || !session.client) return undefined;
    if (session.era === 'modern') return 'per-request';
    if (!session.declaresLogging) return undefined;
    await session.client.setLoggingLevel(level);
    return 'logging/setLevel';
  }

  forget(serverId: string): void {
    this.chosen.delete(serverId);
  }
}
