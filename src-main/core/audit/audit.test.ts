import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { expectProcessGone, REPO_ROOT } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';
import { startHost } from '../../test-support/tool-host';

const CRASHER = fileURLToPath(new URL('../../test-support/crash-mid-call.ts', import.meta.url));

/** Runs a Patchbay that is SIGKILLed while a tool call runs; resolves with the call it started. */
function crashMidCall(dataDir: string): Promise<{ callId: string; serverPid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CRASHER, dataDir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (_code, signal) => {
      const line = /^STARTED (.*)$/m.exec(out);
      if (signal !== 'SIGKILL' || !line) return reject(new Error(`the crasher did not die mid-call (${signal}):\n${out}\n${err}`));
      const started = JSON.parse(line[1]) as { callId: string; serverId: string };
      const pid = Number(/"pid":(\d+)/.exec(out)?.[1] ?? 0);
      resolve({ callId: started.callId, serverPid: pid });
    });
  });
}

describe('the audit trail', () => {
  it('shows a call cut short by a crash as interrupted — outcome unknown — and never runs it again', async () => {
    const dataDir = tempDir();
    const { callId } = await crashMidCall(dataDir);

    const t = startHost(dataDir);
    const [entry] = (await t.api.listToolAudit({})).entries;
    expect(entry).toMatchObject({
      callId,
      tool: 'slow',
      origin: 'user',
      decision: 'allowed',
      outcome: 'interrupted',
      outcomeNote: expect.stringContaining('outcome unknown'),
    });
    expect(entry.finishedAt).toBeUndefined();

    // The leftover server is reaped and the server starts again; the interrupted call is not re-sent.
    const before = (await t.api.getSnapshot()).servers[0];
    await t.host.startServers();
    await waitFor(async () => (await t.api.getSnapshot()).servers[0].runtime.status === 'ready', {
      timeoutMs: 20_000,
      what: 'tool-lab ready',
    });
    const count = await t.api.runTool({ serverId: before.config.id, tool: 'count', args: {} });
    expect(count.blocks).toEqual([{ type: 'text', text: 'tools/call received: 1' }]);
    expect((await t.api.listToolAudit({})).entries.map((e) => [e.tool, e.outcome])).toEqual([
      ['count', 'ok'],
      ['slow', 'interrupted'],
    ]);
  });

  it('keeps secrets out: secret env values, secret-looking keys and token shapes are redacted before SQLite', async () => {
    const t = startHost();
    const secret = 'lab-secret-value-123';
    const id = await t.fixture('tool-lab.mjs', { env: [{ key: 'LAB_SECRET', value: secret, secret: true }] });
    await t.api.runTool({
      serverId: id,
      tool: 'echo',
      args: { message: `use ${secret} with Bearer abcdefghijklmnop`, api_key: 'k-98765', nested: { password: 'hunter22' } },
    });
    const failed = await t.api.runTool({ serverId: id, tool: 'fail', args: {} });
    expect(failed.blocks[0]).toMatchObject({ text: expect.stringContaining(secret) }); // the user sees the result as it is

    const [fail, echo] = (await t.api.listToolAudit({})).entries;
    expect(JSON.parse(echo.args)).toEqual({
      message: 'use [REDACTED] with Bearer [REDACTED]',
      api_key: '[REDACTED]',
      nested: { password: '[REDACTED]' },
    });
    expect(fail).toMatchObject({ outcome: 'tool_error', outcomeNote: 'could not reach the backend with token [REDACTED]' });

    const server = (await t.api.getSnapshot()).servers[0];
    await t.host.dispose();
    if (server.runtime.pid) await expectProcessGone(server.runtime.pid);
    // No file of the database holds the secret value (whichever area wrote it).
    for (const file of fs.readdirSync(t.dataDir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(t.dataDir, file)).includes(secret), `${file} holds the secret env value`).toBe(false);
    }
    const db = new Database(path.join(t.dataDir, DATABASE_FILE), { readonly: true });
    const stored = JSON.stringify(db.prepare('SELECT * FROM tool_audit').all());
    db.close();
    expect(stored).not.toContain('hunter22');
    expect(stored).not.toContain('k-98765');
  });

  it('pages newest first, per server or all', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs');
    for (let i = 0; i < 5; i++) await t.api.runTool({ serverId: id, tool: 'echo', args: { message: `m${i}` } });
    const first = await t.api.listToolAudit({ limit: 2 });
    expect(first.entries.map((e) => JSON.parse(e.args).message)).toEqual(['m4', 'm3']);
    const second = await t.api.listToolAudit({ limit: 2, before: first.nextBefore });
    expect(second.entries.map((e) => JSON.parse(e.args).message)).toEqual(['m2', 'm1']);
    const last = await t.api.listToolAudit({ limit: 2, before: second.nextBefore });
    expect(last.entries.map((e) => JSON.parse(e.args).message)).toEqual(['m0']);
    expect(last.nextBefore).toBeUndefined();
    expect((await t.api.listToolAudit({ serverId: 'other' })).entries).toEqual([]);
  });
});
