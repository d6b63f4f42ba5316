/**
 * A Patchbay that dies mid-call: creates a host on argv[2] (a data directory), adds tool-lab
 * (enabled), starts a long `slow` call, prints `STARTED <server pid>` once the call is running, and
 * kills itself with SIGKILL — no dispose, no outcome written. Run with `node --import tsx`.
 */
import path from 'node:path';
import process from 'node:process';
import { createHost } from '../core/host';
import { dispatchCall } from '../core/rpc/dispatch';
import { FIXTURES_DIR } from './fixtures';

const host = createHost({ mode: 'web', dataDir: process.argv[2], appVersion: '0.0.0-test' });
let asked = false;
host.events.subscribe((event) => {
  if (event.name === 'serverUpdated' && event.payload.runtime.status === 'ready' && !asked) {
    asked = true;
    void dispatchCall(host.handlers, 'runTool', { serverId: event.payload.config.id, tool: 'slow', args: { ms: 60_000, tickMs: 1000 } });
  }
  if (event.name === 'toolCallStarted') {
    process.stdout.write(`STARTED ${JSON.stringify(event.payload)}\n`, () => process.kill(process.pid, 'SIGKILL'));
  }
});
void dispatchCall(host.handlers, 'addServer', {
  name: 'tool-lab',
  command: process.execPath,
  args: [path.join(FIXTURES_DIR, 'tool-lab.mjs')],
});
