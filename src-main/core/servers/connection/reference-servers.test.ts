/**
 * Integration with the real reference servers from node_modules (built on the v1 TypeScript
 * SDK, i.e. legacy-era servers): the whole stack, no fixtures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerRequestError } from './request-errors';
import { ServerConnection, type ServerConnectionOptions } from './server-connection';
import type { ProcessSpec } from '../process/stdio-process';
import { referenceServer, testScope, type TestScope } from '../../../test-support/fixtures';

function connect(scope: TestScope, spec: ProcessSpec, options: Partial<ServerConnectionOptions> = {}) {
  const conn = new ServerConnection({
    config: { id: 'ref', name: 'reference', ...spec },
    loginShellPath: async () => [],
    shutdown: { stdinGraceMs: 1000, termGraceMs: 1000 },
    processStore: { add: (record) => scope.track(record.pid), remove: () => {}, list: () => [] },
    ...options,
  });
  scope.defer(() => conn.stop());
  return conn;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe.concurrent('server-everything over stdio', () => {
  it('connects, lists its catalog, and answers echo and get-sum', async ({ onTestFinished }) => {
    const conn = connect(testScope(onTestFinished), referenceServer('everything', ['stdio']));
    const state = await conn.start();
    expect(state).toMatchObject({
      status: 'ready',
      server: {
        serverInfo: { name: 'mcp-servers/everything' },
        era: 'legacy',
        protocolVersion: '2025-11-25',
        eraVerdict: { kind: 'legacy' },
      },
    });
    const tools = conn.catalog.tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'get-env']));
    expect(conn.catalog.prompts.length).toBeGreaterThan(0);
    expect(conn.catalog.resources.length).toBeGreaterThan(0);

    expect(textOf(await conn.callTool('echo', { message: 'hello everything' }))).toBe('Echo: hello everything');
    expect(textOf(await conn.callTool('get-sum', { a: 2, b: 40 }))).toMatch(/42/);
  });

  it('does not leak the host’s secrets into the server environment', async ({ onTestFinished }) => {
    const conn = connect(
      testScope(onTestFinished),
      { ...referenceServer('everything', ['stdio']), env: { CONFIGURED_FOR_SERVER: 'yes' } },
      { parentEnv: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-do-not-leak', GITHUB_TOKEN: 'ghp_nope' } },
    );
    await conn.start();
    const env = JSON.parse(textOf(await conn.callTool('get-env'))) as Record<string, string>;
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env).not.toHaveProperty('GITHUB_TOKEN');
    expect(env.CONFIGURED_FOR_SERVER).toBe('yes');
    expect(env.PATH).toBeTruthy();
  });

  it('reports progress from a long-running tool, and cancels one on request', async ({ onTestFinished }) => {
    const conn = connect(testScope(onTestFinished), referenceServer('everything', ['stdio']));
    await conn.start();
    const progress: Array<{ progress: number; total?: number }> = [];
    const done = await conn.callTool(
      'trigger-long-running-operation',
      { duration: 0.5, steps: 5 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(textOf(done)).toMatch(/Long running operation completed/);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5]);
    expect(progress[0].total).toBe(5);

    const controller = new AbortController();
    const cancelled = conn
      .callTool(
        'trigger-long-running-operation',
        { duration: 30, steps: 300 },
        { signal: controller.signal, onProgress: () => controller.abort() },
      )
      .catch((error: unknown) => error);
    const error = await cancelled;
    expect(error).toBeInstanceOf(ServerRequestError);
    expect(error).toMatchObject({
      kind: 'cancelled',
      message: 'tools/call "trigger-long-running-operation" to server "reference" was cancelled',
    });
    // The connection is still fine after the cancellation.
    expect(textOf(await conn.callTool('echo', { message: 'after cancel' }))).toBe('Echo: after cancel');
  });
});

describe.concurrent('server-filesystem over stdio', () => {
  it('lists and reads files of the directory it was given', async ({ onTestFinished }) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-fs-')));
    fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello from disk\n');
    const scope = testScope(onTestFinished);
    scope.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
    const conn = connect(scope, referenceServer('filesystem', [dir]));
    expect(await conn.start()).toMatchObject({ status: 'ready', server: { serverInfo: { name: 'secure-filesystem-server' } } });
    expect(conn.catalog.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_text_file', 'list_directory']));

    expect(textOf(await conn.callTool('list_directory', { path: dir }))).toContain('[FILE] hello.txt');
    expect(textOf(await conn.callTool('read_text_file', { path: path.join(dir, 'hello.txt') }))).toBe('hello from disk\n');
    const outside = await conn.callTool('read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });
});

describe.concurrent('server-memory over stdio', () => {
  it('stores entities in the file its configured environment points to', async ({ onTestFinished }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-memory-'));
    const scope = testScope(onTestFinished);
    scope.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'memory.jsonl');
    const conn = connect(scope, { ...referenceServer('memory'), env: { MEMORY_FILE_PATH: file } });
    expect(await conn.start()).toMatchObject({ status: 'ready', server: { serverInfo: { name: 'memory-server' } } });
    await conn.callTool('create_entities', { entities: [{ name: 'Patchbay', entityType: 'app', observations: ['hosts MCP servers'] }] });
    const graph = JSON.parse(textOf(await conn.callTool('read_graph'))) as { entities: Array<{ name: string }> };
    expect(graph.entities.map((entity) => entity.name)).toEqual(['Patchbay']);
    expect(fs.readFileSync(file, 'utf8')).toContain('hosts MCP servers');
  });
});
