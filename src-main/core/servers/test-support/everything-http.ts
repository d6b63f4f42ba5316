/**
 * How to run server-everything over HTTP, shared by the tests (http-servers.ts) and the benchmarks
 * (bench/scenarios/remote.ts). No vitest here: the benchmarks import it outside the test runner.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

// Resolved like a dependency (not a path relative to this file), so a bundle of the benchmarks finds it too.
const ENTRY = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

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
