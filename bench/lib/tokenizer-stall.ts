/**
 * The context meter's first count, and the host thread's worst stall while it runs: the tokenizer on
 * its worker thread (`TokenCounter`, as the host runs it) against building the same o200k_base encoder
 * on the measured thread (what the host did before the worker). Once per process: the in-process arm's
 * modules are only parsed the first time. An idle window as long as the worker's count says what
 * stalls the machine's load alone causes (the worker's CPU competes with the main thread on a busy box).
 */
import { performance } from 'node:perf_hooks';
import { TokenCounter } from '../../src-main/core/context-meter/token-counter';
import { startStallMonitor } from './stall';

export interface FirstCountStall {
  /** Worst main-thread stall (ms) during the first count, and how long that count took (ms). */
  worker: { stallMs: number; countMs: number };
  inProcess: { stallMs: number; countMs: number };
  /** Worst stall (ms) with nothing running, for as long as the worker's count took. */
  idleStallMs: number;
}

const TEXT = 'Reads a file from one of the allowed roots and returns its text, or an error naming the root. '.repeat(20);

export async function measureFirstCountStall(): Promise<FirstCountStall> {
  let monitor = await startStallMonitor();
  let began = performance.now();
  const counter = new TokenCounter();
  await counter.count(TEXT);
  const worker = { countMs: performance.now() - began, stallMs: monitor.stop().worstMs };
  await counter.dispose();

  monitor = await startStallMonitor();
  await new Promise((resolve) => setTimeout(resolve, worker.countMs));
  const idleStallMs = monitor.stop().worstMs;

  monitor = await startStallMonitor();
  began = performance.now();
  const { encode } = await import('gpt-tokenizer/encoding/o200k_base');
  encode(TEXT);
  const inProcess = { countMs: performance.now() - began, stallMs: monitor.stop().worstMs };
  return { worker, inProcess, idleStallMs };
}
