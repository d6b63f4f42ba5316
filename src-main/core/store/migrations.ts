import type Database from 'better-sqlite3';
import init001 from './migrations/001_init';
import servers002 from './migrations/002_servers';
import logs003 from './migrations/003_logs';
import roots004 from './migrations/004_roots';
import tools005 from './migrations/005_tools';
import chat006 from './migrations/006_chat';
import sampling007 from './migrations/007_sampling';
import remote008 from './migrations/008_remote';
import auth009 from './migrations/009_auth';
import gettingServers010 from './migrations/010_getting_servers';
import hardening011 from './migrations/011_hardening';
import providers012 from './migrations/012_providers';
import resources013 from './migrations/013_resources';
import appsTasks014 from './migrations/014_apps_tasks';
import auditChecks015 from './migrations/015_audit_checks';
import toolOffers016 from './migrations/016_tool_offers';
import sandbox017 from './migrations/017_sandbox';
import serverInstructions018 from './migrations/018_server_instructions';
import draftsTaskResults019 from './migrations/019_drafts_task_results';
import readOnlyRoots020 from './migrations/020_read_only_roots';
import instructionsOptIn021 from './migrations/021_instructions_opt_in';
import skills022 from './migrations/022_skills';

/**
 * Numbered schema migrations, applied in order, each in one transaction together with the bump of
 * `PRAGMA user_version`, so a crash mid-migration leaves the previous version intact.
 *
 * Each migration is a TS module exporting its SQL, so the built app needs no files next to it.
 */
export const MIGRATIONS: readonly string[] = [
  init001,
  servers002,
  logs003,
  roots004,
  tools005,
  chat006,
  sampling007,
  remote008,
  auth009,
  gettingServers010,
  hardening011,
  providers012,
  resources013,
  appsTasks014,
  auditChecks015,
  toolOffers016,
  sandbox017,
  serverInstructions018,
  draftsTaskResults019,
  readOnlyRoots020,
  instructionsOptIn021,
  skills022,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function readSchemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every migration newer than the database's recorded version. */
export function migrate(db: Database.Database, migrations: readonly string[] = MIGRATIONS): void {
  const from = readSchemaVersion(db);
  for (let version = from + 1; version <= migrations.length; version++) {
    const sql = migrations[version - 1];
    db.transaction(() => {
      db.exec(sql);
      // PRAGMA takes no bound parameters; `version` is a loop integer, not input.
      db.pragma(`user_version = ${version}`);
    })();
  }
}
