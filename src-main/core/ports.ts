import type { HostMode } from '../../src-preload/contract';

/**
 * What the core needs from the outside world. The Electron glue and the web-mode launcher each
 * provide one; tests provide their own. Interfaces only: no implementation lives here.
 */
export interface HostPorts {
  mode: HostMode;
  /** Per-user data directory; the database and every other file of ours lives below it. */
  dataDir: string;
  appVersion: string;
  /** Path to an Electron-ABI better-sqlite3 build when running in Electron (see scripts/electron-native.mjs). */
  sqliteNativeBinding?: string;
  clock?: Clock;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
