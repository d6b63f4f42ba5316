/**
 * Sampling with a human in the loop: a server's `sampling/createMessage` (a 2025-era request or a
 * 2026-era `input_required` round — the SDK routes both here) becomes a dialog: the user sees and may
 * edit the prompt, chooses the model, approves; the provider generates; the user reviews (may edit)
 * and sends, or rejects at either step (the spec's user-rejected error, -1). Per-server policy: ask,
 * auto-approve the request (the response is still reviewed), or block; plus a rate limit and a
 * max-tokens cap. Every request is audited once it ends, with each of its steps as it happened (who
 * approved or rejected it, at which step). Each request is a `sampling` question of the one queue
 * (questions/): it orders, delivers and settles it exactly once; this service says what each step does.
 */
import { ProtocolError, type CreateMessageRequestParamsBase, type CreateMessageResult } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import {
  HostCallError,
  type InteractionDecider,
  type InteractionStep,
  type JsonObject,
  type NestedToolCall,
  type QuestionOf,
  type SamplingResponseView,
} from '@contract';
import type { HostEventBus } from '../events';
import { completeMessage, type ModelRouter } from '../llm/llm-types';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';
import { chooseModel, type ChoosableModel } from './model-choice';
import type { QuestionQueue, Settlement } from '../questions/question-queue';
import type { InteractionAuditInput, SamplingRepository } from './sampling-repository';
import { responseText, toCreateMessageResult, toLlmMessages, toMessageViews } from './sampling-mapping';

type SamplingQuestion = QuestionOf<'sampling'>;

/** The spec's code for "the user rejected the request". */
export const USER_REJECTED = -1;
const INVALID_REQUEST = -32600;

export interface SamplingServiceDeps {
  repo: SamplingRepository;
  events: HostEventBus;
  /** Where the request waits for the user. */
  questions: QuestionQueue;
  clock: Clock;
  /** Resolves the chosen model to its provider. */
  router: ModelRouter;
  /** Every configured provider's models (their cached lists), to choose from. */
  models(): ChoosableModel[];
  /** The tool call of this server running now (the request is nested in it), if any. */
  runningCallFor(serverId: string): NestedToolCall | undefined;
  /** Redacted JSON of a value, with this server's secrets and secret-looking keys hidden. */
  redactJson(serverId: string, value: unknown): string;
}

interface Extra {
  controller?: AbortController;
  params: CreateMessageRequestParamsBase;
  server: ServerRef;
  /** What happened so far, in order (the audit row gets them all). */
  steps: InteractionStep[];
  /** Settles the SDK handler's promise: a result, or an error the server receives. */
  reply(result: { ok: CreateMessageResult } | { error: Error }): void;
}

export class SamplingService {
  private readonly extras = new Map<string, Extra>();
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly deps: SamplingServiceDeps) {}

  /** The handler body for one request from `server`. */
  async handle(server: ServerRef, params: CreateMessageRequestParamsBase, signal?: AbortSignal): Promise<CreateMessageResult> {
    const { repo, clock } = this.deps;
    const now = clock.now();
    const policy = repo.policy(server.id);
    const toolCall = this.deps.runningCallFor(server.id);
    const refuse = (code: number, note: string): never => {
      const steps: InteractionStep[] = [{ stage: 'request', action: 'blocked', by: 'policy', at: now.toISOString(), note }];
      this.audit({ server, toolCall, params, decidedBy: 'policy', outcome: 'blocked', note, steps, requestedAt: now });
      // Never pending, but audited: whoever lists the audit trail learns of it like of any other settled request.
      this.deps.events.emit('interactionSettled', { id: crypto.randomUUID(), kind: 'sampling', outcome: 'blocked', note });
      throw new ProtocolError(code, note);
    };
    if (this.deps.questions.isClosed('sampling')) throw new ProtocolError(USER_REJECTED, 'Patchbay is quitting');
    if (policy.mode === 'block') refuse(USER_REJECTED, `Sampling is blocked for server "${server.name}" in Patchbay.`);
    if (policy.maxTokensCap !== undefined && params.maxTokens > policy.maxTokensCap) {
      refuse(INVALID_REQUEST, `maxTokens ${params.maxTokens} exceeds this server's cap of ${policy.maxTokensCap} in Patchbay.`);
    }
    if (policy.ratePerMinute !== undefined) {
      const times = (this.recent.get(server.id) ?? []).filter((t) => now.getTime() - t < 60_000);
      if (times.length >= policy.ratePerMinute)
        refuse(INVALID_REQUEST, `Rate limit exceeded: at most ${policy.ratePerMinute} sampling requests per minute for this server.`);
      this.recent.set(server.id, [...times, now.getTime()]);
    }

    const models = this.modelList();
    const choice = chooseModel(models, params.modelPreferences, this.deps.router.defaultChoice());
    const id = crypto.randomUUID();
    const view: SamplingQuestion = {
      kind: 'sampling',
      id,
      serverId: server.id,
      serverName: server.name,
      ...(toolCall ? { toolCall } : {}),
      messages: toMessageViews(params),
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      maxTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
      ...(params.includeContext ? { includeContext: params.includeContext } : {}),
      ...(params.modelPreferences ? { modelPreferences: params.modelPreferences as JsonObject } : {}),
      models: models.map(({ local: _local, ...option }) => option),
      model: choice.model,
      providerId: choice.providerId,
      modelReason: choice.reason,
      stage: policy.mode === 'auto' ? 'generating' : 'request',
      autoApproved: policy.mode === 'auto',
      requestedAt: now.toISOString(),
    };
    const steps: InteractionStep[] = view.autoApproved
      ? [{ stage: 'request', action: 'approved', by: 'policy', at: view.requestedAt }]
      : [];
    const result = new Promise<CreateMessageResult>((resolve, reject) => {
      this.extras.set(id, { params, server, steps, reply: (r) => ('ok' in r ? resolve(r.ok) : reject(r.error)) });
    });
    const quit = (note: string) => this.finish(id, { error: new ProtocolError(USER_REJECTED, note) }, 'shutdown', 'host', undefined, note);
    this.deps.questions.ask<'sampling'>(
      view,
      {
        answer: (answer) => {
          if (answer.action === 'reject') return this.reject(id);
          if (answer.action === 'send') return this.send(id, answer.text);
          this.approve(id, answer.edits, answer.systemPrompt, answer.model, answer.providerId);
          return undefined; // the response comes back for review: still pending
        },
        withdrawn: (note) => this.withdraw(id, note),
        shutdown: quit,
      },
      { ...(signal ? { signal } : {}), cancelNote: `Server "${server.name}" cancelled its sampling request.` },
    );
    if (view.autoApproved) void this.generate(id, view);
    return result;
  }

  /** The user approved (maybe edited) the request: generate with the real provider. */
  private approve(
    id: string,
    edits: { message: number; block: number; text: string }[],
    systemPrompt: string | undefined,
    model: string,
    providerId?: string,
  ): void {
    const view = this.viewOf(id);
    if (view.stage === 'generating') throw new HostCallError('invalid_input', 'The response is being generated already.');
    const messages = view.messages.map((m, mi) => ({
      role: m.role,
      content: m.content.map((b, bi) => {
        const edit = edits.find((e) => e.message === mi && e.block === bi);
        return edit && b.type === 'text' ? { type: 'text' as const, text: edit.text } : b;
      }),
    }));
    const next: SamplingQuestion = {
      ...view,
      messages,
      model,
      providerId: providerId ?? view.providerId,
      stage: 'generating',
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    };
    delete next.error;
    const changed = [
      JSON.stringify(messages) !== JSON.stringify(view.messages) && 'prompt edited',
      (next.systemPrompt ?? '') !== (view.systemPrompt ?? '') && 'system prompt edited',
      model !== view.model && `model ${model}`,
    ].filter((note): note is string => typeof note === 'string');
    this.step(id, 'request', 'approved', 'user', changed.join('; '));
    void this.generate(id, next);
  }

  /** The user reviewed the response and sends it (maybe edited). */
  private send(id: string, text: string): Settlement<'sampling'> {
    const view = this.viewOf(id);
    if (view.stage !== 'review' || !view.response) throw new HostCallError('invalid_input', 'There is no response to send yet.');
    const result = toCreateMessageResult(text, view.response.model, view.response.stopReason);
    return this.finish(id, { ok: result }, 'sent', 'user', result, text !== view.response.text ? 'response edited by the user' : undefined);
  }

  /** Reject at either step: the server gets -1. */
  private reject(id: string): Settlement<'sampling'> {
    const view = this.viewOf(id);
    const note = view.stage === 'generating' ? 'while the response was being generated' : undefined;
    return this.finish(
      id,
      { error: new ProtocolError(USER_REJECTED, 'User rejected sampling request') },
      'rejected',
      'user',
      undefined,
      undefined,
      note,
    );
  }

  private withdraw(id: string, note: string): Settlement<'sampling'> {
    return this.finish(id, { error: new ProtocolError(USER_REJECTED, note) }, 'withdrawn', 'host', undefined, note);
  }

  private async generate(id: string, view: SamplingQuestion): Promise<void> {
    const extra = this.extras.get(id);
    if (!extra) return;
    const controller = new AbortController();
    extra.controller = controller;
    this.deps.questions.update(view);
    try {
      const route = this.deps.router.route({ providerId: view.providerId, model: view.model });
      const response = await completeMessage(
        route.provider,
        {
          model: route.model,
          maxTokens: view.maxTokens,
          ...(view.systemPrompt ? { system: view.systemPrompt } : {}),
          messages: toLlmMessages(view.messages),
          ...(view.temperature !== undefined ? { temperature: view.temperature } : {}),
          ...(view.stopSequences?.length ? { stopSequences: view.stopSequences } : {}),
        },
        { signal: controller.signal },
      );
      const shown: SamplingResponseView = {
        text: responseText(response),
        model: response.model,
        stopReason: response.stopReason,
        usage: response.usage,
      };
      this.update(id, { ...view, stage: 'review', response: shown });
    } catch (error) {
      if (controller.signal.aborted) return;
      // The request step comes back: the user may approve again (another step) or reject.
      this.step(id, 'request', 'failed', 'host', (error as Error).message);
      this.update(id, { ...view, stage: 'request', error: (error as Error).message });
    }
  }

  private update(id: string, view: SamplingQuestion): void {
    this.deps.questions.update(view); // nothing when it settled meanwhile
  }

  /** Records a step of a pending request as it happens. */
  private step(
    id: string,
    stage: InteractionStep['stage'],
    action: InteractionStep['action'],
    by: InteractionDecider,
    note?: string,
  ): void {
    const extra = this.extras.get(id);
    if (!extra) return;
    extra.steps.push({ stage, action, by, at: this.deps.clock.now().toISOString(), ...(note ? { note } : {}) });
  }

  /**
   * How a request settles, for the queue: its last step is `outcome` at the step the request stood at
   * (the request step until a response was being generated or reviewed; `stepNote` goes with it); then
   * the server gets `result`, the request is audited, and the audit trail's readers are told.
   */
  private finish(
    id: string,
    result: { ok: CreateMessageResult } | { error: Error },
    outcome: 'sent' | 'rejected' | 'withdrawn' | 'shutdown',
    decidedBy: 'user' | 'host',
    response?: unknown,
    note?: string,
    stepNote = note,
  ): Settlement<'sampling'> {
    const view = this.viewOf(id);
    return {
      outcome,
      ...(note ? { note } : {}),
      effects: () => {
        const extra = this.extras.get(id);
        if (!extra) return;
        this.step(id, view.stage === 'request' ? 'request' : 'response', outcome, decidedBy, stepNote);
        extra.controller?.abort();
        this.extras.delete(id);
        extra.reply(result);
        const approved = extra.steps.some((s) => s.action === 'approved');
        this.audit({
          server: extra.server,
          toolCall: view.toolCall,
          params: extra.params,
          // What was approved, only when something was: a request rejected at the first step approved nothing.
          ...(approved ? { sent: { model: view.model, systemPrompt: view.systemPrompt, messages: view.messages } } : {}),
          steps: extra.steps,
          decidedBy,
          outcome,
          response,
          note,
          requestedAt: new Date(view.requestedAt),
        });
        this.deps.events.emit('interactionSettled', { id, kind: 'sampling', outcome, ...(note ? { note } : {}) });
      },
    };
  }

  private audit(a: {
    server: ServerRef;
    toolCall?: NestedToolCall;
    params: unknown;
    sent?: unknown;
    decidedBy: InteractionDecider;
    outcome: InteractionAuditInput['outcome'];
    steps: InteractionStep[];
    response?: unknown;
    note?: string;
    requestedAt: Date;
  }): void {
    const request = a.sent ? { asked: a.params, approved: a.sent } : { asked: a.params };
    this.deps.repo.record({
      kind: 'sampling',
      serverId: a.server.id,
      serverName: a.server.name,
      ...(a.toolCall ? { toolCall: a.toolCall.tool } : {}),
      decidedBy: a.decidedBy,
      outcome: a.outcome,
      request: this.deps.redactJson(a.server.id, request),
      ...(a.response !== undefined ? { response: this.deps.redactJson(a.server.id, a.response) } : {}),
      ...(a.note ? { note: a.note } : {}),
      steps: a.steps,
      requestedAt: a.requestedAt.toISOString(),
      decidedAt: this.deps.clock.now().toISOString(),
    });
  }

  private viewOf(id: string): SamplingQuestion {
    const view = this.deps.questions.get(id, 'sampling');
    if (!view) throw new HostCallError('invalid_input', 'This request is no longer pending (it was answered or withdrawn).');
    return view;
  }

  /** Every provider's listed models, plus the default model when its provider did not list it. */
  private modelList(): ChoosableModel[] {
    const models = this.deps.models();
    const fallback = this.deps.router.defaultChoice();
    if (models.some((m) => m.providerId === fallback.providerId && m.id === fallback.model)) return models;
    const route = this.deps.router.route(fallback);
    const local = models.find((m) => m.providerId === fallback.providerId)?.local ?? false;
    return [
      { providerId: fallback.providerId, providerName: route.providerName, id: fallback.model, displayName: fallback.model, local },
      ...models,
    ];
  }
}
