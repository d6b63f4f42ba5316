/**
 * The roots area wired exactly as the host wires it (database, fleet with the roots plugin, handlers),
 * but with the fleet in reach, so tests can call a real server's tools and see what it was told.
 */
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import {
  HOST_METHODS,
  NO_SANDBOX,
  type HostEvent,
  type HostHandlers,
  type HostMethodName,
  type QuestionOf,
  type RootSharingView,
  type SandboxPolicy,
  ServerInputSchema,
} from '@contract';
import { ServerSandboxes } from '../../sandbox/server-sandboxes';
import { sandboxSupport } from '../../sandbox/sandbox-support';
import { HostEventBus } from '../../events';
import { systemClock } from '../../clock';
import { inProcessApi } from '../../rpc/dispatch';
import { KeyFileSecretBox } from '../../secrets/key-file-secret-box';
import { ServerConfigRepository } from '../../server-config/server-config-repository';
import { ServerFleet } from '../../server-fleet/server-fleet';
import type { ProcessSpec } from '../../servers/process/stdio-process';
import type { TestScope } from '../../../test-support/fixtures';
import { waitFor } from '../../servers/wait';
import { openDatabase } from '../../store/database';
import { createQuestionHandlers } from '../../questions/question-handlers';
import { QuestionQueue } from '../../questions/question-queue';
import { createRootsArea, createSharedFolders, type RootsTimings } from '../roots-area';

/** The roots methods, and the one every question is answered with. */
type RootsMethod = keyof ReturnType<typeof createRootsArea>['handlers'] | 'answerQuestion';
type Output<K extends HostMethodName> = Exclude<(typeof HOST_METHODS)[K]['output'], undefined>;

export interface RootsHarness {
  readonly events: HostEvent[];
  readonly fleet: ServerFleet;
  /** Every JSON-RPC message on every server's wire, in order. */
  readonly wire: { serverId: string; direction: 'in' | 'out'; message: JSONRPCMessage }[];
  /** Calls a roots method the way every bridge does (validated input, errors as HostCallError). */
  call<K extends RootsMethod>(method: K, input: z.input<(typeof HOST_METHODS)[K]['input']>): Promise<Output<K>>;
  /** Sandbox lines written to servers' Host log stream, in order. */
  readonly sandboxLog: { serverId: string; level: string; text: string }[];
  /** Adds a server (not started), in a sandbox when `sandbox` says so. */
  addServer(name: string, spec: ProcessSpec, sandbox?: SandboxPolicy): string;
  /** Starts a server and waits until it is ready. */
  start(id: string): Promise<void>;
  /** Calls a tool on a ready server. */
  tool(id: string, name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The text of a tool result. */
  text(result: CallToolResult): string;
  /** Waits for an open (requested, not yet settled) "Share folders" question about this server. */
  openConsent(serverId: string): Promise<QuestionOf<'roots'>>;
  /** What each decided server may see now (the snapshot's `sharing`). */
  sharing(): RootSharingView[];
}

/** A roots harness on a temp data dir; everything it starts is stopped (and checked gone) at test end. */
export function rootsHarness(scope: TestScope, timings: RootsTimings = {}): RootsHarness {
  // Its own temp dir, removed after everything closed (the shared tempDir() is not safe in concurrent tests).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-roots-data-'));
  scope.defer(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const { db } = openDatabase(dataDir);
  const events = new HostEventBus();
  const seen: HostEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const repo = new ServerConfigRepository(db);
  const wire: RootsHarness['wire'] = [];
  const questions = new QuestionQueue({ events, clock: systemClock });
  const folders = createSharedFolders({ db, events, clock: systemClock, serverName: (id) => repo.get(id)?.name });
  const area = createRootsArea({
    folders,
    clock: systemClock,
    questions,
    restartServer: (id) => void fleet.start(id).catch(() => undefined),
    sandboxedFolders: (id) => sandboxes.foldersOf(id),
    timings: { availabilityIntervalMs: 0, ...timings },
  });
  const sandboxLog: RootsHarness['sandboxLog'] = [];
  const sandboxes = new ServerSandboxes({
    dataDir,
    support: sandboxSupport,
    sharedFolders: (id) => folders.service.sharedFolders(id),
    log: (serverId, level, text) => sandboxLog.push({ serverId, level, text }),
  });
  const fleet = new ServerFleet({
    repo,
    secrets: new KeyFileSecretBox(dataDir),
    processStore: { add: (record) => scope.track(record.pid), remove: () => {}, list: () => [] },
    events,
    clock: systemClock,
    connectionDefaults: { shutdown: { stdinGraceMs: 500, termGraceMs: 500 }, loginShellPath: async () => [] },
    plugins: [
      area.plugin,
      sandboxes.plugin,
      { onWire: (server, direction, message) => wire.push({ serverId: server.id, direction, message }) },
    ],
    sandboxes,
  });
  scope.defer(async () => {
    area.dispose();
    await fleet.dispose();
    sandboxes.dispose();
    events.clear();
    db.close();
  });
  const api = inProcessApi({ ...area.handlers, ...createQuestionHandlers(questions) } as unknown as HostHandlers);

  const harness: RootsHarness = {
    events: seen,
    fleet,
    wire,
    sandboxLog,
    call: (method, input) => (api[method] as (input: unknown) => Promise<never>)(input),
    addServer(name, spec, sandbox) {
      const input = ServerInputSchema.parse({ name, command: spec.command, args: spec.args ?? [], enabled: false, sandbox });
      return repo.insert(
        {
          ...input,
          sandbox: input.sandbox ?? NO_SANDBOX,
          oauthClientSecret: undefined,
          oauthPrivateKey: undefined,
          idpClientSecret: undefined,
          env: Object.entries(spec.env ?? {}).map(([key, value]) => ({ key, value })),
          headers: [],
        },
        new Date(),
      ).id;
    },
    async start(id) {
      const view = await fleet.start(id);
      if (view.runtime.status !== 'ready') throw new Error(`Server did not start: ${JSON.stringify(view.runtime)}`);
    },
    tool: (id, name, args = {}) => fleet.connection(id)!.callTool(name, args),
    text: (result) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
    openConsent(serverId) {
      const open = () => {
        const settled = new Set(seen.flatMap((e) => (e.name === 'questionSettled' ? [e.payload.id] : [])));
        return seen.flatMap((e) =>
          e.name === 'questionAsked' && e.payload.kind === 'roots' && e.payload.serverId === serverId && !settled.has(e.payload.id)
            ? [e.payload]
            : [],
        )[0];
      };
      return waitFor(open, { timeoutMs: 20_000, what: 'a Share folders question' });
    },
    sharing: () => area.snapshot().roots.sharing,
  };
  return harness;
}
