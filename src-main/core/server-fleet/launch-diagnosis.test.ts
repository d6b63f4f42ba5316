import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiagnosisStep, ServerDiagnosis, ServerInput } from '@contract';
import { expectProcessGone, FIXTURES_DIR } from '../../test-support/fixtures';
import { tempDir } from '../../test-support/temp-dir';
import { startTestHost } from '../../test-support/test-host';
import { waitFor } from '../servers/wait';

const NODE = process.execPath;
/** The PATH the servers see: one empty folder, so `npx`, `uvx` and the like are never found (the fixtures run Node by its full path). */
const PATH_DIRS = [tempDir()];

/** A host whose servers see exactly PATH_DIRS (no login-shell lookup), and a helper to add servers disabled. */
function host() {
  const t = startTestHost({
    connectionDefaults: { parentEnv: { PATH: PATH_DIRS.join(':'), HOME: process.env.HOME ?? '/' }, loginShellPath: async () => [] },
  });
  const add = async (input: ServerInput) => (await t.api.addServer({ enabled: false, ...input })).config.id;
  return { ...t, add };
}

const statuses = (d: ServerDiagnosis) => d.steps.map((step) => [step.id, step.status]);
const step = (d: ServerDiagnosis, id: DiagnosisStep['id']) => d.steps.find((s) => s.id === id)!;

describe('launch problems', () => {
  it('a command that is not on PATH: Error with the folders searched and fixes (install hint, full path, edit)', async () => {
    const t = host();
    const id = await t.add({ name: 'notes', command: 'uvx', args: ['notes-mcp'] });
    const view = await t.api.startServer({ id });
    expect(view.runtime.status).toBe('error');
    expect(view.runtime.launch).toMatchObject({ kind: 'command-not-found', command: 'uvx', searched: PATH_DIRS });
    expect(view.runtime.launch!.fixes).toEqual([
      expect.objectContaining({ kind: 'install', tool: 'uv', url: expect.stringMatching(/^https:\/\/docs\.astral\.sh\/uv\//) }),
      { kind: 'hint', text: expect.stringContaining('use its full path as the Command (in a terminal, `which uvx` prints it)') },
      { kind: 'edit', field: 'command', text: 'Edit the server’s Command' },
    ]);
    // Other causes get their own fixes: a missing working directory points at that field.
    const moved = await t.add({ name: 'moved', command: NODE, cwd: tempDir() });
    const gone = (await t.api.getSnapshot()).servers.find((s) => s.config.id === moved)!.config.cwd;
    fs.rmSync(gone, { recursive: true });
    expect((await t.api.startServer({ id: moved })).runtime.launch).toMatchObject({
      kind: 'cwd-missing',
      cwd: gone,
      fixes: [{ kind: 'hint' }, { kind: 'edit', field: 'cwd' }],
    });
  });
});

describe('Diagnose', () => {
  it('a missing command: fails at "Find the command", listing the folders searched; later steps are not tried', async () => {
    const t = host();
    const id = await t.add({ name: 'gh', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] });
    const diagnosis = await t.api.diagnoseServer({ id });
    expect(diagnosis).toMatchObject({ serverId: id, serverName: 'gh', done: true, ok: false });
    expect(statuses(diagnosis)).toEqual([
      ['config', 'ok'],
      ['cwd', 'ok'],
      ['resolve', 'failed'],
      ['executable', 'skipped'],
      ['spawn', 'skipped'],
      ['initialize', 'skipped'],
      ['tools', 'skipped'],
    ]);
    expect(step(diagnosis, 'config').detail).toBe('Command line: npx -y @modelcontextprotocol/server-github');
    expect(step(diagnosis, 'resolve')).toMatchObject({ detail: expect.stringContaining('`npx` not found on PATH'), list: PATH_DIRS });
    expect(step(diagnosis, 'tools').detail).toBe('Not tried: an earlier step failed.');
    expect(diagnosis.problem?.fixes[0]).toMatchObject({ kind: 'install', tool: 'Node.js' });

    // Each step was reported as it ended, in order, the last report being the result.
    const reports = t.events.filter((e) => e.name === 'serverDiagnosis').map((e) => e.payload as ServerDiagnosis);
    expect(reports.every((r) => r.runId === diagnosis.runId)).toBe(true);
    expect(reports[0].steps[0].status).toBe('running');
    expect(reports.at(-1)).toEqual(diagnosis);
  });

  it('a file that cannot be run: found, then fails at "Check it can be run" with chmod as the fix', async () => {
    const t = host();
    const dir = tempDir();
    const script = path.join(dir, 'server.sh');
    fs.writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const id = await t.add({ name: 'script', command: script });
    const diagnosis = await t.api.diagnoseServer({ id });
    expect(statuses(diagnosis).slice(2, 4)).toEqual([
      ['resolve', 'ok'],
      ['executable', 'failed'],
    ]);
    expect(step(diagnosis, 'executable').detail).toContain('is not executable');
    expect(diagnosis.problem).toMatchObject({ kind: 'not-executable', resolved: script });
    expect(diagnosis.problem!.fixes).toContainEqual({ kind: 'hint', text: `Make it executable: chmod +x ${script}` });
  });

  it('a server that exits at once: spawned, then fails the handshake with its exit code and what it wrote', async () => {
    const t = host();
    const id = await t.add({
      name: 'quitter',
      command: NODE,
      args: ['-e', "console.error('config.yaml: no such file'); process.exit(2)"],
    });
    const diagnosis = await t.api.diagnoseServer({ id });
    expect(statuses(diagnosis).slice(3, 7)).toEqual([
      ['executable', 'ok'],
      ['spawn', 'ok'],
      ['initialize', 'failed'],
      ['tools', 'skipped'],
    ]);
    expect(step(diagnosis, 'resolve').detail).toBe(NODE);
    expect(step(diagnosis, 'spawn').detail).toMatch(/^pid \d+$/);
    expect(step(diagnosis, 'initialize')).toMatchObject({
      detail: 'The process exited during the handshake (exit code 2).',
      output: ['config.yaml: no such file'],
    });
    expect(step(diagnosis, 'initialize').durationMs).toBeGreaterThanOrEqual(0);
    await expectProcessGone(Number(step(diagnosis, 'spawn').detail.slice(4)));
  });

  it('a server that never answers: fails the handshake at its initialize timeout, and is stopped', async () => {
    const t = host();
    const id = await t.add({
      name: 'silent',
      command: NODE,
      args: [path.join(FIXTURES_DIR, 'never-initializes.mjs')],
      initTimeoutMs: 1500,
    });
    const diagnosis = await t.api.diagnoseServer({ id });
    expect(step(diagnosis, 'initialize')).toMatchObject({
      status: 'failed',
      detail: 'No answer to the handshake within 1.5 s; the process was stopped.',
      output: expect.arrayContaining(['never-initializes: listening, will never answer']),
    });
    await expectProcessGone(Number(step(diagnosis, 'spawn').detail.slice(4)));
  });

  it('junk on stdout: the launch works, and what was skipped is said in the handshake step', async () => {
    const t = host();
    const id = await t.add({ name: 'junk', command: NODE, args: [path.join(FIXTURES_DIR, 'junk-stdout.mjs')] });
    const diagnosis = await t.api.diagnoseServer({ id });
    expect(diagnosis.ok).toBe(true);
    expect(statuses(diagnosis).every(([, status]) => status === 'ok')).toBe(true);
    expect(step(diagnosis, 'initialize').detail).toMatch(/^junk-stdout .* speaks MCP \d{4}-\d{2}-\d{2}$/);
    expect(step(diagnosis, 'initialize').list?.join('\n')).toContain('Junk server v0.1 starting up');
    expect(step(diagnosis, 'tools').detail).toBe('1 tool: echo');
    await expectProcessGone(Number(step(diagnosis, 'spawn').detail.slice(4)));
    // The server itself was never started by it.
    expect((await t.api.getSnapshot()).servers.find((s) => s.config.id === id)!.runtime.status).toBe('stopped');
  });

  it('refuses a running server, and keeps secrets out of what it shows', async () => {
    const t = host();
    const id = await t.add({ name: 'echo', command: NODE, args: [path.join(FIXTURES_DIR, 'echo.mjs')], enabled: true });
    await waitFor(async () => (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
      what: 'echo to be ready',
    });
    await expect(t.api.diagnoseServer({ id })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('stop it first'),
    });

    const leaky = await t.add({
      name: 'leaky',
      command: NODE,
      args: ['-e', 'console.error("token is " + process.env.API_TOKEN); process.exit(1)'],
      env: [{ key: 'API_TOKEN', value: 'correct-horse-battery', secret: true }],
    });
    const diagnosis = await t.api.diagnoseServer({ id: leaky });
    expect(step(diagnosis, 'initialize').output).toEqual(['token is ••••••']);
    expect(JSON.stringify(diagnosis)).not.toContain('correct-horse-battery');
  });
});
