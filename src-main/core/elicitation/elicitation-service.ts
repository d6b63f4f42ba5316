/**
 * Elicitation with the user in the loop: a server's `elicitation/create` (2025-era request or 2026-era
 * `input_required` round; the SDK routes both here) waits as a dialog. Form mode: the answer is checked
 * against the requested schema and sent as accept/decline/cancel. URL mode: only http(s) URLs are
 * shown; the renderer opens the URL only after the user accepts. Every decision is audited.
 */
import { ProtocolError, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import {
  type ElicitationContent,
  type ElicitationRequestView,
  HostCallError,
  type InteractionAuditEntry,
  type NestedToolCall,
} from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';
import { PendingRequests } from '../pending-requests';
import { validateElicitation } from './elicitation-validate';

export interface ElicitationServiceDeps {
  /** Where answered requests are recorded (the sampling area's repository: elicitation sits below sampling). */
  repo: { record(entry: Omit<InteractionAuditEntry, 'seq'>): void };
  events: HostEventBus;
  clock: Clock;
  runningCallFor(serverId: string): NestedToolCall | undefined;
  redactJson(serverId: string, value: unknown): string;
}

type Params = ElicitRequest['params'];

export class ElicitationService {
  private readonly pending = new PendingRequests<ElicitationRequestView>();
  private readonly asked = new Map<string, { server: ServerRef; params: Params }>();
  private closed = false;

  constructor(private readonly deps: ElicitationServiceDeps) {}

  async handle(server: ServerRef, params: Params, signal?: AbortSignal): Promise<ElicitResult> {
    const now = this.deps.clock.now();
    const toolCall = this.deps.runningCallFor(server.id);
    if (this.closed) throw new ProtocolError(-1, 'Patchbay is quitting');
    const base = {
      id: crypto.randomUUID(),
      serverId: server.id,
      serverName: server.name,
      ...(toolCall ? { toolCall } : {}),
      message: params.message,
      requestedAt: now.toISOString(),
    };
    let view: ElicitationRequestView;
    if (params.mode === 'url') {
      let url: URL | undefined;
      try {
        url = new URL(params.url);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        const note = `Patchbay only opens http(s) URLs; refused "${params.url.slice(0, 200)}".`;
        this.record(server, toolCall?.tool, params, 'host', 'blocked', undefined, note, now);
        // Never pending, but audited: whoever lists the audit trail learns of it like of any other settled request.
        this.deps.events.emit('interactionSettled', { id: base.id, kind: 'elicitation', outcome: 'blocked', note });
        throw new ProtocolError(-32602, note);
      }
      view = { ...base, mode: 'url', url: url.href, urlHost: url.host };
    } else {
      const schema = params.requestedSchema as unknown as { properties: Record<string, Record<string, unknown>>; required?: string[] };
      view = { ...base, mode: 'form', requestedSchema: schema as ElicitationRequestView['requestedSchema'] };
    }
    this.asked.set(view.id, { server, params });
    const result = this.pending.add<ElicitResult>(view, signal, () =>
      this.withdraw(view.id, `Server "${server.name}" cancelled its request.`),
    );
    this.deps.events.emit('elicitationRequested', view);
    return result;
  }

  views(): ElicitationRequestView[] {
    return this.pending.views();
  }

  /** The user's answer. Accept with content failing the schema is a field error (`content.<key>`). */
  resolve(id: string, action: 'accept' | 'decline' | 'cancel', content?: ElicitationContent): void {
    const entry = this.pending.get(id);
    if (!entry) throw new HostCallError('invalid_input', 'This request is no longer pending (it was answered or withdrawn).');
    let result: ElicitResult = { action };
    if (action === 'accept' && entry.view.mode === 'form' && entry.view.requestedSchema) {
      const answer = content ?? {};
      const issues = validateElicitation(entry.view.requestedSchema, answer);
      if (issues.length > 0) {
        throw new HostCallError(
          'invalid_input',
          issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          issues.map((i) => ({ path: ['content', ...i.path], message: i.message })),
        );
      }
      result = { action, content: answer };
    }
    const outcome = action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'cancelled';
    this.finish(id, { ok: result }, outcome, 'user', result);
  }

  withdrawServer(serverId: string, note: string): void {
    for (const id of this.pending.idsOf(serverId)) this.withdraw(id, note);
  }

  dispose(): void {
    this.closed = true;
    for (const id of this.pending.ids())
      this.finish(id, { ok: { action: 'cancel' } }, 'shutdown', 'host', { action: 'cancel' }, 'Patchbay is quitting');
  }

  private withdraw(id: string, note: string): void {
    this.finish(id, { error: new ProtocolError(-1, note) }, 'withdrawn', 'host', undefined, note);
  }

  private finish(
    id: string,
    result: { ok: unknown } | { error: Error },
    outcome: 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'shutdown',
    decidedBy: 'user' | 'host',
    response?: unknown,
    note?: string,
  ): void {
    const entry = this.pending.get(id);
    const asked = this.asked.get(id);
    if (!entry || !asked) return;
    this.asked.delete(id);
    this.pending.settle(id, result);
    this.record(
      asked.server,
      entry.view.toolCall?.tool,
      asked.params,
      decidedBy,
      outcome,
      response,
      note,
      new Date(entry.view.requestedAt),
    );
    this.deps.events.emit('interactionSettled', { id, kind: 'elicitation', outcome, ...(note ? { note } : {}) });
  }

  private record(
    server: ServerRef,
    toolCall: string | undefined,
    params: Params,
    decidedBy: 'user' | 'host',
    outcome: 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'shutdown' | 'blocked',
    response: unknown,
    note: string | undefined,
    requestedAt: Date,
  ): void {
    this.deps.repo.record({
      kind: 'elicitation',
      serverId: server.id,
      serverName: server.name,
      ...(toolCall ? { toolCall } : {}),
      decidedBy,
      outcome,
      request: this.deps.redactJson(server.id, params),
      ...(response !== undefined ? { response: this.deps.redactJson(server.id, response) } : {}),
      ...(note ? { note } : {}),
      requestedAt: requestedAt.toISOString(),
      decidedAt: this.deps.clock.now().toISOString(),
    });
  }
}
