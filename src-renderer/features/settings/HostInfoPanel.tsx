import type { HostInfo } from '@contract';

/** Live facts about the host: version, mode, where data lives, and how the database came up. */
export function HostInfoPanel({ info }: { info: HostInfo }) {
  const db = info.database;
  return (
    <section aria-labelledby="about-title" className="card">
      <h2 id="about-title">About this host</h2>
      <dl className="facts">
        <dt>Version</dt>
        <dd data-testid="host-version">{info.version}</dd>
        <dt>Mode</dt>
        <dd data-testid="host-mode">{info.mode === 'web' ? 'Web mode (browser)' : 'Electron app'}</dd>
        <dt>Runtime</dt>
        <dd>
          {info.runtime} · {info.platform}
        </dd>
        <dt>Data directory</dt>
        <dd data-testid="host-data-dir">
          <code>{info.dataDir}</code>
        </dd>
        <dt>App log</dt>
        <dd data-testid="host-log-file">
          <code>{info.logFile}</code>
        </dd>
        <dt>Database</dt>
        <dd data-testid="host-database">
          {db.state === 'ok' ? 'OK' : 'Recovered'} · schema {db.schemaVersion} · journal {db.journalMode} · synchronous {db.synchronous}
        </dd>
      </dl>
      {db.movedAsideTo && (
        <p role="alert" className="warning">
          The database was damaged and has been moved aside to <code>{db.movedAsideTo}</code> (kept, not deleted). Patchbay started with a
          new, empty database.
        </p>
      )}
    </section>
  );
}
