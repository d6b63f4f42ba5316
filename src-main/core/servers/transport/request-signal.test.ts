/**
 * The abort-listener leak of issue #15: undici's `Request` listens on the signal it is given until it is
 * garbage-collected, and the SDK gives every fetch its transport-lifetime signal. Through
 * `RemoteServerTransport` each request gets a signal of its own, so the long-lived one keeps one listener.
 */
import { Client } from '@modelcontextprotocol/client';
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startSessionServer } from '../test-support/http-servers';
import { RemoteServerTransport } from './remote-transport';
import { linkSignal, watchBody } from './request-signal';

const CALLS = 2_000;
const IN_FLIGHT = 16;

describe('one abort signal per HTTP request', () => {
  it('keeps the listeners on the SDK transport signal flat over 2,000 calls, 16 in flight', { timeout: 300_000 }, async () => {
    const server = await startSessionServer();
    const transport = new RemoteServerTransport({
      serverName: 'session-server',
      url: new URL(server.url),
      mode: 'streamable-http',
      headers: {},
    });
    const client = new Client({ name: 'listener-test', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    // The signal the SDK passes to every fetch of this transport (a private field of its transport):
    // the one undici's listeners used to pile up on.
    const inner = (transport as unknown as { inner: { _abortController?: AbortController } }).inner;
    const sdkSignal = inner._abortController?.signal;
    expect(sdkSignal).toBeInstanceOf(AbortSignal);
    const counts: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < CALLS) {
          const n = next++;
          const result = await client.callTool({ name: 'echo', arguments: { text: `call ${n}` } });
          expect(result.content).toEqual([{ type: 'text', text: `echo: call ${n}` }]);
          if (n % 100 === 0) counts.push(getEventListeners(sdkSignal!, 'abort').length);
        }
      }),
    );
    counts.push(getEventListeners(sdkSignal!, 'abort').length);
    expect(counts).toHaveLength(CALLS / 100 + 1);
    // One listener of ours (plus whatever the SDK keeps for itself), whatever the number of calls.
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    expect(counts.at(-1)).toBe(counts[0]);
  });

  it('still aborts a request whose body is being read when the long-lived signal aborts, and lets go once it is over', async () => {
    let release: () => void = () => undefined;
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      if (req.url === '/short') res.end('data: last\n\n');
      else release = () => res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      release();
      server.closeAllConnections();
      server.close();
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const transportLife = new AbortController();

    // A finished request no longer hears the long-lived signal.
    const short = linkSignal(transportLife.signal)!;
    let settled = 0;
    const settle = (link: { release(): void }) => () => {
      settled += 1;
      link.release();
    };
    const done = watchBody(await fetch(`${origin}/short`, { signal: short.signal }), { onSettled: settle(short) });
    expect(await done.text()).toBe('data: first\n\ndata: last\n\n');
    expect(settled).toBe(1);

    // A stream still open is aborted with the transport, reason and all.
    const long = linkSignal(transportLife.signal)!;
    const open = watchBody(await fetch(`${origin}/long`, { signal: long.signal }), { onSettled: settle(long) });
    const reader = open.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    transportLife.abort(new Error('transport closed'));
    await expect(reader.read()).rejects.toThrow('transport closed');
    expect(long.signal.aborted).toBe(true);
    expect(short.signal.aborted).toBe(false);
    expect(settled).toBe(2);
    expect(getEventListeners(transportLife.signal, 'abort')).toHaveLength(0);
    expect(linkSignal(transportLife.signal)).toBeUndefined();
  });
});
