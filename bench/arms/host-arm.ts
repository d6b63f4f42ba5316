/**
 * The host arm: the real core (`createHost`) in this process, on a fresh temporary data directory.
 * Servers are configured as the app stores them and brought up either as at launch
 * (`startServers()` on a host with N enabled configs) or as the UI adds them (`addServer` calls
 * through `inProcessApi`, validated like the bridges' calls). Ready means every `serverUpdated` says `ready`.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ServerView } from '@contract';
import { createHost, type Host } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { descendants, type ProcRef } from '../lib/procs';
import { seedInto, serverInput, tempDataDir } from '../lib/seed';
import type { ServerSpec } from '../lib/servers';

export type HostStartMode = 'launch' | 'add';

/** A fresh data directory holding `specs` as enabled server configs (what addServer would store). */
export function seedDataDir(specs: ServerSpec[]): string {
  const dataDir = tempDataDir();
  seedInto(dataDir, specs);
  return dataDir;
}

/** Per-server phase durations, ms (from the `starting` details the host publishes). */
export interface HostPhases {
  /** launching → spawned (command resolution, login-shell PATH, spawn). */
  spawn: number[];
  /** spawned → catalog requested (server/discover probe + initialize). */
  handshake: number[];
  /** first list request → ready (tools, resources, prompts). */
  catalog: number[];
  /** start call → this server ready. */
  ready: number[];
}

export class HostArm {
  readonly host: Host;
  /** Latest status per server id (only that: the bench must not hold views in the measured heap). */
  private readonly statuses = new Map<string, string>();
  private readonly marks = new Map<string, { launch?: number; spawned?: number; listing?: number; ready?: number }>();
  private t0 = 0;
  private waiter: { n: number; resolve: () => void; reject: (e: Error) => void } | undefined;

  private constructor(readonly dataDir: string) {
    this.host = createHost({ mode: 'web', sandboxByDefault: false, dataDir, appVersion: 'bench' });
    this.host.events.subscribe((event) => {
      if (event.name === 'serverUpdated') this.onUpdate(event.payload);
    });
  }

  /** A host whose data directory already holds `specs` as enabled configs (for `launch`). */
  static seeded(specs: ServerSpec[]): HostArm {
    return new HostArm(seedDataDir(specs));
  }

  static empty(): HostArm {
    return new HostArm(seedDataDir([]));
  }

  /** Brings `specs` up (see module comment); resolves with ms until every server is ready. */
  async startAll(specs: ServerSpec[], mode: HostStartMode): Promise<number> {
    const allReady = new Promise<void>((resolve, reject) => (this.waiter = { n: specs.length, resolve, reject }));
    this.t0 = performance.now();
    if (mode === 'launch') {
      await this.host.startServers();
    } else {
      const api = inProcessApi(this.host.handlers);
      for (const [i, spec] of specs.entries()) await api.addServer(serverInput(spec, i, true));
    }
    this.check();
    await allReady;
    return performance.now() - this.t0;
  }

  phases(): HostPhases {
    const p: HostPhases = { spawn: [], handshake: [], catalog: [], ready: [] };
    for (const m of this.marks.values()) {
      if (m.launch !== undefined && m.spawned !== undefined) p.spawn.push(m.spawned - m.launch);
      if (m.spawned !== undefined && m.listing !== undefined) p.handshake.push(m.listing - m.spawned);
      if (m.listing !== undefined && m.ready !== undefined) p.catalog.push(m.ready - m.listing);
      if (m.ready !== undefined) p.ready.push(m.ready - this.t0);
    }
    return p;
  }

  /** Every process below this one: the servers and whatever they started. */
  processes(): ProcRef[] {
    return descendants(process.pid);
  }

  /** Quit: `dispose()`; resolves with its duration in ms. Removes the data directory. */
  async dispose(): Promise<number> {
    const t = performance.now();
    await this.host.dispose();
    const ms = performance.now() - t;
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    return ms;
  }

  private onUpdate(view: ServerView): void {
    const now = performance.now();
    const id = view.config.id;
    this.statuses.set(id, view.runtime.status);
    const m = this.marks.get(id) ?? {};
    this.marks.set(id, m);
    const { status, detail } = view.runtime;
    if (status === 'starting' && detail === 'launching') m.launch ??= now;
    if (status === 'starting' && detail && /negotiating|connecting/.test(detail)) m.spawned ??= now;
    if (status === 'starting' && detail?.startsWith('listing')) m.listing ??= now;
    if (status === 'ready') m.ready ??= now;
    this.check(view);
  }

  private check(view?: ServerView): void {
    const w = this.waiter;
    if (!w) return;
    if (view && (view.runtime.status === 'error' || view.runtime.status === 'crashed')) {
      this.waiter = undefined;
      w.reject(new Error(`${view.config.name}: ${view.runtime.status}: ${view.runtime.reason}`));
      return;
    }
    const ready = [...this.statuses.values()].filter((status) => status === 'ready').length;
    if (ready >= w.n) {
      this.waiter = undefined;
      w.resolve();
    }
  }
}
