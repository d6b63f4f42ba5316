import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LaunchError } from '../process/launch-error';
import { isProcessAlive } from '../process/process-tree';
import { OversizedMessageError, StdioServerTransport, type StdioTransportOptions, type TransportWarning } from './stdio-transport';
import { fixture, testScope, type TestScope } from '../../../test-support/fixtures';
import { waitFor } from '../wait';

/** A transport plus a minimal hand-rolled JSON-RPC client, so framing is tested without the SDK. */
async function open(scope: TestScope, options: Omit<StdioTransportOptions, 'serverName'> & { serverName?: string }) {
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const warnings: TransportWarning[] = [];
  let closed = 0;
  const transport = new StdioServerTransport({
    serverName: 'test-server',
    loginShellPath: async () => [],
    ...options,
    onWarning: (warning) => warnings.push(warning),
  });
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => (closed += 1);
  await transport.start();
  scope.track(transport.pid);
  scope.defer(() => transport.close());
  let nextId = 1;
  const request = async (method: string, params?: Record<string, unknown>): Promise<unknown> => {
    const id = nextId++;
    await transport.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return waitFor(() => messages.find((m) => 'id' in m && m.id === id), { timeoutMs: 10_000, what: `response to ${method}` });
  };
  const initialize = () =>
    request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } });
  return { transport, messages, errors, warnings, request, initialize, closes: () => closed };
}

const fastShutdown = { stdinGraceMs: 300, termGraceMs: 300, killWaitMs: 3000 };

describe.concurrent('StdioServerTransport', () => {
  it('exchanges newline-delimited JSON-RPC and shuts a well-behaved server down by closing stdin', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, fixture('echo.mjs'));
    const init = await t.initialize();
    expect(init).toMatchObject({ id: 1, result: { serverInfo: { name: 'echo' } } });
    const call = await t.request('tools/call', { name: 'echo', arguments: { message: 'héllo ✓' } });
    expect(call).toMatchObject({ result: { content: [{ type: 'text', text: 'echo: héllo ✓' }] } });
    await waitFor(() => t.transport.stderr?.lines().includes('<- tools/call #2'), { what: 'stderr log line' });

    const result = await t.transport.shutdown();
    expect(result).toMatchObject({ stage: 'stdin-closed', code: 0, groupGone: true });
    expect(t.closes()).toBe(1);
    expect(t.transport.closeReport).toMatchObject({ reason: 'closed-by-host', exit: { code: 0 } });
  });

  it('skips junk lines and non-JSON-RPC JSON on stdout with warnings, and keeps the connection', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, fixture('junk-stdout.mjs'));
    await t.initialize();
    const call = await t.request('tools/call', { name: 'echo', arguments: { message: 'still here' } });
    expect(call).toMatchObject({ result: { content: [{ text: 'echo: still here' }] } });
    await waitFor(() => t.warnings.length >= 5, { what: 'junk warnings' });
    expect(t.warnings.filter((w) => w.kind === 'non-json').length).toBeGreaterThanOrEqual(3);
    expect(t.warnings.filter((w) => w.kind === 'not-json-rpc').length).toBeGreaterThanOrEqual(2);
    expect(t.warnings[0].message).toMatch(/^Server "test-server" wrote a line to stdout that is not JSON \(ignored\): Junk server/);
    expect(t.closes()).toBe(0);
  });

  it('receives a 10 MB result intact under the default limit', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, fixture('big-result.mjs'));
    await t.initialize();
    const response = (await t.request('tools/call', { name: 'big' })) as { result: { content: Array<{ text: string }> } };
    const text = response.result.content[0].text;
    expect(text.length).toBe(10 * 1024 * 1024);
    expect(text.startsWith('0123456789abcdef0123')).toBe(true);
    expect(text.endsWith('0123456789abcdef')).toBe(true);
  });

  it('discards a message over the size limit with an error naming the server, fails that request, and survives', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, { ...fixture('big-result.mjs'), maxMessageBytes: 1024 * 1024 });
    await t.initialize();
    const response = await t.request('tools/call', { name: 'big' });
    expect(response).toMatchObject({ id: 2, error: { message: expect.stringMatching(/exceeds the 1\u00a0MB limit/) } });
    expect(t.errors).toHaveLength(1);
    expect(t.errors[0]).toBeInstanceOf(OversizedMessageError);
    expect(t.errors[0].message).toMatch(
      /^Server "test-server" sent a 10\.0\u00a0MB message \(the response to request 2\), over the 1\u00a0MB limit/,
    );
    const after = await t.request('tools/call', { name: 'echo', arguments: { message: 'alive' } });
    expect(after).toMatchObject({ result: { content: [{ text: 'echo: alive' }] } });
  });

  it('drains a 10 MB stderr flood into a bounded ring and still answers initialize', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const lines: string[] = [];
    const t = await open(scope, { ...fixture('stderr-flood.sh'), stderr: { maxLines: 200 }, onStderrLine: (line) => lines.push(line) });
    const init = await t.initialize();
    expect(init).toMatchObject({ result: { serverInfo: { name: 'echo' } } });
    const ring = t.transport.stderr!;
    // The last pipe-full of the flood may still be in flight when the response arrives.
    await waitFor(() => ring.lines().includes('stderr flood: done'), { what: 'the end of the flood' });
    expect(ring.totalBytes).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    expect(ring.lines().length).toBeLessThanOrEqual(200);
    expect(lines.length).toBeGreaterThan(100_000);
  });

  it('reports a crash at once with the exit code and the last stderr lines', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, fixture('crash-on-call.mjs', { args: ['1'] }));
    await t.initialize();
    await t.transport.send({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'work' } });
    await waitFor(() => t.closes() === 1, { what: 'onclose' });
    expect(t.transport.closeReport).toEqual({ reason: 'process-exited', exit: { code: 3, signal: null } });
    expect(t.transport.stderr?.lines(2)).toContain('fatal: simulated crash on call 1');
    await expect(t.transport.send({ jsonrpc: '2.0', id: 100, method: 'ping' })).rejects.toThrow(/Server "test-server" is not running/);
  });

  it('escalates to SIGKILL for a server that ignores stdin close and SIGTERM, grandchild included', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const t = await open(scope, { ...fixture('ignores-sigterm.mjs'), shutdown: fastShutdown });
    await t.initialize();
    const pids = (await t.request('tools/call', { name: 'pids' })) as { result: { content: Array<{ text: string }> } };
    const { grandchild } = JSON.parse(pids.result.content[0].text) as { grandchild: number };
    scope.track(grandchild);
    expect(isProcessAlive(grandchild)).toBe(true);

    const result = await t.transport.shutdown();
    expect(result).toMatchObject({ stage: 'sigkill', signal: 'SIGKILL', groupGone: true });
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it('passes only allow-listed host variables plus the configured ones', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const script = 'process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"env",params:process.env})+"\\n")';
    const t = await open(scope, {
      command: process.execPath,
      args: ['-e', script],
      env: { SERVER_TOKEN: 'configured' },
      parentEnv: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-secret', AWS_SECRET_ACCESS_KEY: 'x', HOME: '/home/test', LC_ALL: 'C' },
    });
    const env = (await waitFor(() => t.messages[0])) as { params: Record<string, string> };
    expect(env.params).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env.params).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(env.params).toMatchObject({ SERVER_TOKEN: 'configured', HOME: '/home/test', LC_ALL: 'C' });
    await waitFor(() => t.closes() === 1, { what: 'exit' });
  });

  describe('launch errors', () => {
    const start = (options: Partial<StdioTransportOptions>) =>
      new StdioServerTransport({ serverName: 's', command: 'x', loginShellPath: async () => [], ...options }).start();

    it('names the command and the searched PATH when a bare command is not found', async () => {
      const error = await start({ command: 'npx-does-not-exist', parentEnv: { PATH: '/nowhere/a:/nowhere/b' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LaunchError);
      expect((error as LaunchError).message).toBe('`npx-does-not-exist` not found on PATH (searched: /nowhere/a, /nowhere/b)');
    });

    it('says when the working directory is missing', async () => {
      await expect(start({ command: process.execPath, cwd: '/definitely/not/here' })).rejects.toThrow(
        'Working directory /definitely/not/here does not exist',
      );
    });

    it('says when the file is not executable', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-launch-'));
      const file = path.join(dir, 'server.sh');
      fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
      try {
        await expect(start({ command: file })).rejects.toMatchObject({ code: 'not-executable' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
