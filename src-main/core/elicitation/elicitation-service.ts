/**
 * Elicitation with the user in the loop: a server's `elicitation/create` (2025-era request or 2026-era
 * `input_required` round; the SDK routes both here) waits as a dialog. Form mode: the answer is checked
 * against the requested schema and sent as accept/decline/cancel. URL mode: only http(s) URLs are
 * shown; the renderer opens the URL only after the user accepts. Every decision is audited. Each
 * request is an `elicitation` question of the one queue (questions/), which delivers and settles it.
 */
import { ProtocolError, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import {
  type ElicitationContent,
  type ElicitationRequestView,
  type InteractionOutcome,
  HostCallError,
  type InteractionAuditEntry,
  type NestedToolCall,
} from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';
import type { QuestionQueue, Settlement } from '../questions/question-queue';
import { validateElicitation } from './elicitation-validate';

export interface ElicitationServiceDeps {
  /** Where answered requests are recorded (the sampling area's repository: elicitation sits below sampling). */
  repo: { record(entry: Omit<InteractionAuditEntry, 'seq'>): void };
  events: HostEventBus;
  /** Where the request waits for the user. */
  questions: QuestionQueue;
  clock: Clock;
  runningCallFor(serverId: string): NestedToolCall | undefined;
  redactJson(serverId: string, value: unknown): string;
}

type Params = ElicitRequest['params'];

export class ElicitationService {
  constructor(private readonly deps: ElicitationServiceDeps) {}

  async handle(server: ServerRef, params: Params, signal?: AbortSignal): Promise<ElicitResult> {
    const now = this.deps.clock.now();
    const toolCall = this.deps.runningCallFor(server.id);
    if (this.deps.questions.isClosed('elicitation')) throw new ProtocolError(-1, 'Patchbay is quitting');
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
    return new Promise<ElicitResult>((resolve, reject) => {
      /** How the request settles: the server gets `result`, and the decision is audited. */
      const finish = (
        result: { ok: ElicitResult } | { error: Error },
        outcome: Extract<InteractionOutcome, 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'shutdown'>,
        decidedBy: 'user' | 'host',
        response?: unknown,
        note?: string,
      ): Settlement<'elicitation'> => ({
        outcome,
        ...(note ? { note } : {}),
        effects: () => {
          if ('ok' in result) resolve(result.ok);
          else reject(result.error);
          this.record(server, toolCall?.tool, params, decidedBy, outcome, response, note, now);
          this.deps.events.emit('interactionSettled', { id: view.id, kind: 'elicitation', outcome, ...(note ? { note } : {}) });
        },
      });
      this.deps.questions.ask<'elicitation'>(
        { kind: 'elicitation', ...view },
        {
          answer: ({ action, content }) => {
            const result = this.answer(view, action, content);
            const outcome = action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'cancelled';
            return finish({ ok: result }, outcome, 'user', result);
          },
          withdrawn: (note) => finish({ error: new ProtocolError(-1, note) }, 'withdrawn', 'host', undefined, note),
          shutdown: (note) => finish({ ok: { action: 'cancel' } }, 'shutdown', 'host', { action: 'cancel' }, note),
        },
        { ...(signal ? { signal } : {}), cancelNote: `Server "${server.name}" cancelled its request.` },
      );
    });
  }

  /** The user's answer, as the server gets it. Accept with content failing the schema is a field error (`content.<key>`). */
  private answer(view: ElicitationRequestView, action: 'accept' | 'decline' | 'cancel', content?: ElicitationContent): ElicitResult {
    if (action !== 'accept' || view.mode !== 'form' || !view.requestedSchema) return { action };
    const answer = content ?? {};
    const issues = validateElicitation(view.requestedSchema, answer);
    if (issues.length > 0) {
      throw new HostCallError(
        'invalid_input',
        issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        issues.map((i) => ({ path: ['content', ...i.path], message: i.message })),
      );
    }
    return { action, content: answer };
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
