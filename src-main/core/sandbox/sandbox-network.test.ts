/**
 * The sandbox's network against real processes (bubblewrap), the probe fixture sandboxed and
 * unsandboxed side by side: whatever the network, the server has a network namespace of its own, and
 * the host-filter proxy is its one way out. Skipped where the sandbox cannot run.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { testScope } from '../../test-support/fixtures';
import { rootsHarness } from '../roots/test-support/roots-harness';
import { sandboxSupport } from './sandbox-support';
import { waitFor } from '../servers/wait';
import { folder, probes, processesWith, say } from './test-support/sandbox-probes';

const support = sandboxSupport();

describe.skipIf(!support.supported).concurrent("a sandboxed server's network", () => {
  it('cannot connect to a listener on the host loopback with network blocked', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const listener = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    scope.defer(() => new Promise((resolve) => listener.close(resolve)));
    const port = (listener.address() as net.AddressInfo).port;
    const { boxed, open } = await probes(h, folder(scope, 'work'));

    expect(await say(h, open, 'connect', { host: '127.0.0.1', port })).toBe('ok: hello from the host');
    expect(await say(h, boxed, 'connect', { host: '127.0.0.1', port })).toMatch(/^error: ECONNREFUSED/);
  });

  it('with network allowed, reaches a named local web server through the proxy, but neither an abstract socket nor a host port the unsandboxed twin reaches', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    // The host's own doors: a loopback port and an abstract unix socket (D-Bus and X11 listen on such).
    const door = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
    scope.defer(() => new Promise((resolve) => door.close(resolve)));
    const port = (door.address() as net.AddressInfo).port;
    const abstract = `patchbay-test-${process.pid}-${Date.now()}`;
    const bus = net.createServer((socket) => socket.end('hello from the bus\n'));
    await new Promise<void>((resolve) => bus.listen(`\0${abstract}`, resolve));
    scope.defer(() => new Promise((resolve) => bus.close(resolve)));
    // The one local web server the server's list names (no internet here: it stands for an allowed host).
    const web = http.createServer((_request, response) => response.end('hello over http'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    scope.defer(() => new Promise((resolve) => web.close(resolve)));
    const named = (web.address() as net.AddressInfo).port;
    const { boxed, open } = await probes(h, folder(scope, 'work'), { enabled: true, network: 'allowed', hosts: [`127.0.0.1:${named}`] });

    expect(await say(h, open, 'connect', { host: '127.0.0.1', port })).toBe('ok: hello from the host');
    expect(await say(h, open, 'connect-unix', { path: `@${abstract}` })).toBe('ok: hello from the bus');
    expect(await say(h, boxed, 'connect', { host: '127.0.0.1', port })).toMatch(/^error: ECONNREFUSED/);
    expect(await say(h, boxed, 'connect-unix', { path: `@${abstract}` })).toMatch(/^error: ECONNREFUSED/);

    expect(await say(h, boxed, 'http-get', { url: `http://127.0.0.1:${named}/` })).toBe('ok: HTTP/1.1 200 OK | hello over http');
    expect(await say(h, boxed, 'http-get', { url: `http://localhost:${named}/` })).toBe('ok: HTTP/1.1 200 OK | hello over http');
    // Through the proxy too, a port of this computer it does not name stays shut.
    expect(await say(h, boxed, 'http-get', { url: `http://127.0.0.1:${port}/` })).toMatch(/^ok: HTTP\/1.1 403 Forbidden/);
    expect(h.sandboxLog.filter((line) => line.serverId === boxed).map((line) => line.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`network allowed through a proxy (a network of its own; this computer only at 127.0.0.1:${named})`),
        `Sandbox: blocked a connection to 127.0.0.1:${port} (this computer's own address: name it in the server's sandbox hosts to allow it)`,
      ]),
    );
    expect(h.fleet.viewById(boxed).runtime.sandbox?.summary).toBe(
      `Sandboxed: sees 1 shared folder; network allowed through Patchbay (this computer only at 127.0.0.1:${named})`,
    );
    // The relay (on this very Node) ends with its server: nothing of it is left once the server stops.
    const relay = `sandboxes/${boxed}/proxy.sock`;
    // bubblewrap (twice: it is also the PID namespace's init) carries the socket's path on its command line, and so does the relay.
    const comm = (pid: number) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    expect(processesWith(relay).map(comm).sort()).toEqual(['bwrap', 'bwrap', 'node']);
    await h.fleet.stop(boxed);
    await waitFor(() => processesWith(relay).length === 0, { timeoutMs: 5000, what: 'the relay to be gone' });
  });

  it('with Only these hosts, reaches a listed host through the proxy, and neither an unlisted one nor anything directly', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const web = http.createServer((_request, response) => response.end('hello over http'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    scope.defer(() => new Promise((resolve) => web.close(resolve)));
    const port = (web.address() as net.AddressInfo).port;
    // An unlisted host on this machine: another loopback address (the whole of 127/8 is loopback on Linux).
    const other = http.createServer((_request, response) => response.end('hello from another host'));
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.2', resolve));
    scope.defer(() => new Promise((resolve) => other.close(resolve)));
    const { boxed, open } = await probes(h, folder(scope, 'work'), { enabled: true, network: 'hosts', hosts: ['127.0.0.1'] });

    expect(await say(h, boxed, 'http-get', { url: `http://127.0.0.1:${port}/` })).toBe('ok: HTTP/1.1 200 OK | hello over http');
    // The loopback's names are one host: listing 127.0.0.1 admits localhost too.
    expect(await say(h, boxed, 'http-get', { url: `http://localhost:${port}/` })).toBe('ok: HTTP/1.1 200 OK | hello over http');
    expect(await say(h, boxed, 'http-get', { url: `http://127.0.0.2:${port}/` })).toMatch(/^ok: HTTP\/1.1 403 Forbidden/);
    expect(await say(h, boxed, 'connect', { host: '127.0.0.1', port })).toMatch(/^error: ECONNREFUSED/);
    // Unsandboxed, the same unlisted host answers.
    expect(await say(h, open, 'http-get', { url: `http://127.0.0.2:${port}/` })).toBe('ok: HTTP/1.1 200 OK | hello from another host');
    expect(h.sandboxLog.some((line) => line.serverId === boxed && line.text.includes(`blocked a connection to 127.0.0.2:${port}`))).toBe(
      true,
    );
  });
});
