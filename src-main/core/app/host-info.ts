import process from 'node:process';
import type { DatabaseStatus, HostInfo, HostMode } from '@contract';
import type { AppLog } from '../logs/app-log';
import { publicSupport, sandboxSupport } from '../sandbox/sandbox-support';

/** What this host is (the About panel, the support report), said once in the app log as it starts. */
export function describeHost(host: {
  version: string;
  mode: HostMode;
  dataDir: string;
  database: DatabaseStatus;
  startedAt: Date;
  log: AppLog;
}): HostInfo {
  const info: HostInfo = {
    appName: 'Patchbay',
    version: host.version,
    mode: host.mode,
    dataDir: host.dataDir,
    platform: `${process.platform}-${process.arch}`,
    runtime: process.versions.electron ? `Electron ${process.versions.electron}` : `Node ${process.versions.node}`,
    database: host.database,
    startedAt: host.startedAt.toISOString(),
    logFile: host.log.path,
    sandbox: publicSupport(sandboxSupport()),
  };
  host.log.write(
    'info',
    'app',
    `Patchbay ${info.version} started (${info.mode} mode, ${info.runtime}, ${info.platform}); data in ${info.dataDir}; database ${host.database.state}, schema ${host.database.schemaVersion}`,
  );
  return info;
}
