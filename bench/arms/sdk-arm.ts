/**
 * The baseline: the bare SDK, as a minimal host would use it. One `Client` per server over the
 * SDK's own `StdioClientTransport` (default options: legacy negotiation, 10 MB read buffer unless
 * raised), stderr piped and drained (the host keeps stderr too), `connect` + `listTools`.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { descendants, type ProcRef } from '../lib/procs';
import type { ServerSpec } from '../lib/servers';

export interface SdkPhases {
  /** spawn + initialize, per client. */
  connect: number[];
  /** listTools, per client. */
  list: number[];
  /** start → this client listed its tools. */
  ready: number[];
}

export class SdkArm {
  readonly clients: Client[] = [];
  private readonly phaseData: SdkPhases = { connect: [], list: [], ready: [] };

  /** Connects every spec in parallel (`Promise.all`); resolves with ms until all listed their tools. */
  async startAll(specs: ServerSpec[], options: { maxBufferSize?: number } = {}): Promise<number> {
    const t0 = performance.now();
    await Promise.all(
      specs.map(async (spec, i) => {
        const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
        this.clients.push(client);
        const transport = new StdioClientTransport({
          command: spec.command,
          args: spec.args,
          cwd: os.homedir(),
          stderr: 'pipe',
          ...(options.maxBufferSize ? { maxBufferSize: options.maxBufferSize } : {}),
        });
        let stderrTail = '';
        transport.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-600)));
        const a = performance.now();
        let b = a;
        try {
          await client.connect(transport);
          b = performance.now();
          await client.listTools();
        } catch (error) {
          const step = b === a ? 'connect' : 'listTools';
          throw new Error(
            `SDK server #${i + 1} (${spec.kind}) failed in ${step}: ${(error as Error).message}; stderr: ${stderrTail.trim()}`,
          );
        }
        const c = performance.now();
        this.phaseData.connect.push(b - a);
        this.phaseData.list.push(c - b);
        this.phaseData.ready.push(c - t0);
      }),
    );
    return performance.now() - t0;
  }

  phases(): SdkPhases {
    return this.phaseData;
  }

  processes(): ProcRef[] {
    return descendants(process.pid);
  }

  /** Quit: close every client in parallel (the SDK's own stdin → SIGTERM → SIGKILL escalation). */
  async dispose(): Promise<number> {
    const t = performance.now();
    await Promise.all(this.clients.map((client) => client.close()));
    return performance.now() - t;
  }
}
