/**
 * How to run server-everything over HTTP, shared by the tests (http-servers.ts) and the benchmarks
 * (bench/scenarios/remote.ts). No vitest here: the benchmarks import it outside the test runner.
 */
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** What server-everything prints once it listens, in either HTTP mode. */
export const EVERYTHING_LISTENING = /listening on port|running on port/i;

/** A port that was free a moment ago (server-everything takes its port from $PORT, so it cannot pick one). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The command line and environment of server-everything in `mode` on `port`, and its MCP endpoint path. */
export function everythingHttp(
  mode: 'streamableHttp' | 'sse',
  port: number,
): { args: string[]; env: Record<string, string>; path: string } {
  return { args: [path.normalize(ENTRY), mode], env: { PORT: String(port) }, path: mode === 'sse' ? '/sse' : '/mcp' };
}
