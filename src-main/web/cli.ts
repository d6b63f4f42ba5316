/**
 * `npm run web`: the host core in plain Node, serving the renderer to a browser on 127.0.0.1.
 * Built to out/main/web.js alongside the Electron entry.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { createHost } from '../core/host';
import { parseWebArgs, WEB_USAGE } from './cli-args';
import { startWebServer } from './web-server';

const here = path.dirname(fileURLToPath(import.meta.url));

function readVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.resolve(here, '../../package.json'), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

/** Opens the URL in the default browser when this machine has a desktop; silently skips otherwise. */
function openBrowser(url: string): void {
  const hasDesktop = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!hasDesktop) return;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseWebArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`patchbay web: ${(error as Error).message}\n\n${WEB_USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(WEB_USAGE);
    return;
  }

  let host;
  try {
    host = createHost({ mode: 'web', dataDir: options.dataDir, appVersion: readVersion() });
  } catch (error) {
    console.error(`patchbay web: cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  const started = host;
  // A crash of web mode goes to the app log too (written at once: the process ends next).
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    started.app.log.error('web', origin === 'unhandledRejection' ? 'Unhandled rejection' : 'Uncaught exception', error);
    started.app.log.flushSync();
  });
  if (host.info.database.movedAsideTo) {
    console.warn(
      `patchbay web: the database was damaged and was moved aside to ${host.info.database.movedAsideTo}; a new one was created.`,
    );
  }
  let server;
  try {
    server = await startWebServer({ host, rendererDir: path.resolve(here, '../renderer'), dataDir: options.dataDir, port: options.port });
  } catch (error) {
    const inUse = (error as { code?: string }).code === 'EADDRINUSE';
    console.error(
      `patchbay web: cannot start: ${inUse ? `port ${options.port} on 127.0.0.1 is already in use (choose another with --port, or omit it for a free one)` : (error as Error).message}`,
    );
    await host.dispose();
    process.exit(1);
  }
  console.log(`Patchbay web mode: ${server.url}`);
  console.log(`Data directory: ${options.dataDir}`);
  // Servers start once the page can be served; nothing waits for them.
  void host.startServers();
  if (options.open) openBrowser(server.url);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`patchbay web: ${signal}, shutting down`);
    await server.close();
    await host.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
