/**
 * A local OTLP/HTTP endpoint for the telemetry benches, in a child process of its own so that its
 * CPU (reading each export, answering 200) is not counted as the host's. Counts the posts it got.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import process from 'node:process';

const SINK = `
const http = require('node:http');
let posts = 0;
const server = http.createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => { posts++; res.writeHead(200).end(); });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('message', () => process.send(posts));
`;

export async function startOtlpSink(): Promise<{ url: string; posts(): Promise<number>; stop(): void }> {
  const child = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const { port } = JSON.parse(line.toString()) as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async posts() {
      child.send('count');
      const [count] = (await once(child, 'message')) as [number];
      return count;
    },
    stop: () => void child.kill(),
  };
}
