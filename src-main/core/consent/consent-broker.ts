/**
 * The consent broker: every model-initiated tool call that no standing decision covers waits here
 * for the user. Requests are plain data keyed by id (the renderer shows them, in order, one dialog
 * at a time); each settles exactly once — answered, timed out (denied), withdrawn (the server went
 * away, the caller gave up) or denied at shutdown. Fail closed: anything but an explicit "allow"
 * is a denial.
 */
import type { Tool } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import {
  type ConsentDecision,
  type ConsentOutcome,
  type ConsentRequestView,
  type DiffLine,
  HostCallError,
  type JsonObject,
} from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { toolHints } from '../tool-definition/definition';

/** What the router asks about. */
export interface ConsentAsk {
  serverId: string;
  serverName: string;
  tool: Tool;
  args: Record<string, unknown>;
  reason: 'ask' | 'changed';
  diff?: DiffLine[];
  /** Who asks for the call: the model (default) or the server's app. */
  origin?: 'model' | 'app';
}

export type ConsentAnswer =
  | { kind: 'allow'; always: boolean; args: Record<string, unknown>; edited: boolean; decidedAt: Date }
  | { kind: 'deny'; outcome: Exclude<ConsentOutcome, 'allowed'>; note: string; decidedAt: Date };

interface Pending {
  view: ConsentRequestView;
  tool: Tool;
  settle(answer: ConsentAnswer): void;
  timer: NodeJS.Timeout;
}

export interface ConsentBrokerOptions {
  events: HostEventBus;
  clock: Clock;
  /** Read at each request, so a changed setting applies to the next one. */
  timeoutMs(): number;
}

export class ConsentBroker {
  /** Insertion order is the queue order. */
  private readonly waiting = new Map<string, Pending>();
  private closed = false;

  constructor(private readonly options: ConsentBrokerOptions) {}

  /** Queues a request; the promise settles exactly once. An aborted `signal` withdraws it. */
  ask(ask: ConsentAsk, signal?: AbortSignal): Promise<ConsentAnswer> {
    const now = this.options.clock.now();
    if (this.closed) return Promise.resolve({ kind: 'deny', outcome: 'shutdown', note: 'Patchbay is quitting', decidedAt: now });
    if (signal?.aborted) return Promise.resolve({ kind: 'deny', outcome: 'withdrawn', note: 'The request was cancelled', decidedAt: now });
    const id = crypto.randomUUID();
    const timeoutMs = this.options.timeoutMs();
    const hints = toolHints(ask.tool);
    const view: ConsentRequestView = {
      id,
      serverId: ask.serverId,
      serverName: ask.serverName,
      tool: ask.tool.name,
      ...(ask.tool.title ? { title: ask.tool.title } : {}),
      ...(ask.tool.description ? { description: ask.tool.description } : {}),
      ...(hints ? { annotations: hints } : {}),
      inputSchema: ask.tool.inputSchema as JsonObject,
      args: ask.args as JsonObject,
      reason: ask.reason,
      ...(ask.origin === 'app' ? { origin: 'app' as const } : {}),
      ...(ask.diff ? { diff: ask.diff } : {}),
      requestedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + timeoutMs).toISOString(),
    };
    return new Promise<ConsentAnswer>((resolve) => {
      const onAbort = () =>
        this.settle(id, { kind: 'deny', outcome: 'withdrawn', note: 'The request was cancelled', decidedAt: this.options.clock.now() });
      const timer = setTimeout(() => {
        const minutes = Math.round(timeoutMs / 60_000);
        this.settle(id, {
          kind: 'deny',
          outcome: 'timed_out',
          note: `Nobody answered within ${minutes >= 1 ? `${minutes} min` : `${timeoutMs} ms`}`,
          decidedAt: this.options.clock.now(),
        });
      }, timeoutMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        view,
        tool: ask.tool,
        timer,
        settle: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.options.events.emit('consentRequested', view);
    });
  }

  /** Pending requests, oldest first. */
  pending(): ConsentRequestView[] {
    return [...this.waiting.values()].map((p) => p.view);
  }

  /** The tool a pending request is about (to validate edited arguments), or a user-facing error. */
  toolOf(id: string): Tool {
    const pending = this.waiting.get(id);
    if (!pending) throw notPending();
    return pending.tool;
  }

  /** The user's answer. Throws when the request is no longer pending (answered, expired, withdrawn). */
  answer(id: string, decision: ConsentDecision, editedArgs?: Record<string, unknown>): void {
    const pending = this.waiting.get(id);
    if (!pending) throw notPending();
    const decidedAt = this.options.clock.now();
    if (decision === 'deny') {
      this.settle(id, { kind: 'deny', outcome: 'denied', note: 'The user declined', decidedAt });
      return;
    }
    const args = editedArgs ?? (pending.view.args as Record<string, unknown>);
    this.settle(id, { kind: 'allow', always: decision === 'always_allow', args, edited: editedArgs !== undefined, decidedAt });
  }

  /** The server disconnected, stopped or was removed: its requests are withdrawn (denied). */
  withdrawServer(serverId: string, note: string): void {
    for (const [id, pending] of [...this.waiting]) {
      if (pending.view.serverId === serverId)
        this.settle(id, { kind: 'deny', outcome: 'withdrawn', note, decidedAt: this.options.clock.now() });
    }
  }

  /** Quit: every pending request is denied, and any later one too. */
  dispose(note = 'Patchbay is quitting'): void {
    this.closed = true;
    for (const id of [...this.waiting.keys()])
      this.settle(id, { kind: 'deny', outcome: 'shutdown', note, decidedAt: this.options.clock.now() });
  }

  private settle(id: string, answer: ConsentAnswer): void {
    const pending = this.waiting.get(id);
    if (!pending) return; // settled already: exactly once
    this.waiting.delete(id);
    clearTimeout(pending.timer);
    this.options.events.emit('consentSettled', { id, outcome: answer.kind === 'allow' ? 'allowed' : answer.outcome });
    pending.settle(answer);
  }
}

function notPending(): HostCallError {
  return new HostCallError('invalid_input', 'This request is no longer pending (it was answered, timed out or withdrawn).');
}
