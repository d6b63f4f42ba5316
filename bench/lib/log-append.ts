/**
 * For `npm run bench` (bench/ calls this; nothing here runs on its own): the cost of getting log
 * entries into the host — redaction, level guessing, the ring, the live batches and the SQLite writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HostEvents } from '@contract';
import { HostEventBus } from '../../src-main/core/events';
import { systemClock } from '../../src-main/core/clock';
import { openDatabase } from '../../src-main/core/store/database';
import { createLogArea } from '../../src-main/core/logs/index';

/** What one `benchLogAppend` run measured. */
export interface LogAppendBench {
  entries: number;
  /** Appending all entries, back to back as a flood delivers them (one synchronous burst). */
  appendMs: number;
  /** Microseconds per appended entry. */
  perEntryUs: number;
  /** Writing what was queued to SQLite (one transaction; a flood's excess is counted, not written). */
  persistMs: number;
  persistedRows: number;
  /** Live `logAppended` events the burst produced, and what they carried. */
  liveBatches: number;
  liveEntries: number;
  liveSkipped: number;
  /** In memory afterwards: bounded whatever `entries` was. */
  ringEntries: number;
  ringBytes: number;
  /** Heap growth over the run (rough: no forced GC unless node runs with --expose-gc). */
  heapDeltaBytes: number;
}

/**
 * Appends `n` stderr-like lines for one server through the logs' connection plugin (as the fleet does),
 * with a secret to redact, then flushes the live batch and the write queue. Uses a fresh database in a
 * temp directory, removed afterwards. `protocolEvery`: also send a small JSON-RPC request every that
 * many lines (0: none), to include protocol summaries and detail serialization.
 */
export async function benchLogAppend(n: number, { protocolEvery = 10 }: { protocolEvery?: number } = {}): Promise<LogAppendBench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-logs-'));
  const { db } = openDatabase(dataDir);
  const events = new HostEventBus();
  const batches: HostEvents['logAppended'][] = [];
  events.subscribe((event) => event.name === 'logAppended' && batches.push(event.payload));
  const logs = createLogArea({ db, events, clock: systemClock });
  const server = { id: 'bench', name: 'bench' };
  logs.plugin.onLaunch(server, {
    command: 'node',
    args: [],
    cwd: '',
    env: [{ key: 'TOKEN', secret: true }],
    secretValues: ['bench-secret-value'],
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  try {
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      logs.plugin.onStderrLine(server, `2026-01-01T00:00:00Z INFO worker ${i % 8}: processed item ${i} token=bench-secret-value ok`);
      if (protocolEvery > 0 && i % protocolEvery === 0) {
        logs.plugin.onWire(
          server,
          'out',
          { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { message: `m${i}` } } },
          96,
        );
      }
    }
    const appendMs = performance.now() - started;
    const persistStarted = performance.now();
    logs.service.flush();
    const persistMs = performance.now() - persistStarted;
    logs.dispose(); // sends the last live batch
    gc?.();
    const memory = logs.service.memoryStats();
    return {
      entries: n,
      appendMs,
      perEntryUs: (appendMs * 1000) / Math.max(1, n),
      persistMs,
      persistedRows: logs.service.repo.stats().rows,
      liveBatches: batches.length,
      liveEntries: batches.reduce((sum, b) => sum + b.entries.length, 0),
      liveSkipped: batches.reduce((sum, b) => sum + b.skipped.reduce((s, k) => s + k.count, 0), 0),
      ringEntries: memory.ringEntries,
      ringBytes: memory.ringBytes,
      heapDeltaBytes: process.memoryUsage().heapUsed - heapBefore,
    };
  } finally {
    logs.dispose();
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
