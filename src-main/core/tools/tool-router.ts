/**
 * The one way a tool call leaves Patchbay. `callToolWithConsent` finds the tool, validates the
 * arguments, obtains a decision (the user's click for `user` calls; standing decisions or the
 * consent broker for `model` calls and for `app` calls — a server's app, MCP Apps — alike), commits
 * the audit row, and only then sends `tools/call` (as a task when the tool and server support it).
 * Tools a server marks for its app only (`_meta.ui.visibility`) are refused to the model, and tools
 * not marked for the app are refused to the app.
 *
 * This object lives in the core process only. The contract exposes user-initiated runs (`runTool`),
 * app requests bound to the app's own server (`callToolFromApp`) and answers to pending questions
 * (`answerQuestion`, see questions/) — nothing that runs a tool as the model. The chat loop calls
 * `callToolWithConsent({origin: 'model'})` in-process.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { HostCallError, type AuditDecider, type ChatCallRef, type RunningToolCall, type ToolRunStatus } from '@contract';
import type { AuditStore } from '../audit/audit-store';
import type { SecretValues } from '../audit/secret-values';
import type { ConsentBroker } from '../consent/consent-broker';
import type { ConsentPolicies } from '../consent/consent-policies';
import type { HostEventBus } from '../events';
import { ruleLabel, type CallGuard, type GuardCall, type Judgement } from '../guard/call-guard';
import type { Clock } from '../clock';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { runsAsTask, type ToolTasks } from '../tasks/tool-tasks';
import { describeIssues, validateArgs, withoutNullOptionals } from '../tool-definition/args-validator';
import { visibleTo } from '../tool-definition/tool-ui';
import { canonicalJson } from '../tool-definition/canonical-json';
import { definitionHash } from '../tool-definition/definition';
import { RequestAbort } from '../servers/sdk-internals/request-abort';
import * as say from './call-messages';
import { CallRecorder, type CallBase, type Decision } from './call-recorder';
import { ProgressForwarder } from './progress-forwarder';
import type { ToolCallDone, ToolCallRequest } from './tool-call';

export interface ToolRouterDeps {
  connection(serverId: string): LiveServer | undefined;
  /** The server when it is Ready now (the fleet's one readiness check). */
  readyNow(serverId: string): ReadyServer | undefined;
  broker: ConsentBroker;
  policies: ConsentPolicies;
  audit: AuditStore;
  secretValues: SecretValues;
  events: HostEventBus;
  clock: Clock;
  /** A standing decision was created from a dialog's "Always allow". */
  onPoliciesChanged(): void;
  /** Runs calls of tools that support tasks as tasks (absent: every call is a plain `tools/call`). */
  tasks?: Pick<ToolTasks, 'run'>;
  /** Rules, the organisation's policy and the three-way risk: asked before standing decisions (absent: none apply). */
  guard?: CallGuard;
}

const NO_JUDGEMENT: Judgement = { kind: 'none' };

export class ToolRouter {
  private readonly running = new Map<string, { view: RunningToolCall; controller: RequestAbort }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly record: CallRecorder;
  private disposed = false;

  constructor(private readonly deps: ToolRouterDeps) {
    this.record = new CallRecorder(deps);
  }

  /** See the module comment. Never rejects for a model call; a user call with bad arguments throws `invalid_input`. */
  callToolWithConsent(request: ToolCallRequest): Promise<ToolCallDone> {
    const done = this.call(request);
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done)).catch(() => undefined);
    return done;
  }

  /** Cancels a running call; false when there is none by that id. */
  cancel(callId: string): boolean {
    const call = this.running.get(callId);
    call?.controller.abort(new Error('Cancelled by the user'));
    return call !== undefined;
  }

  isRunning(callId: string): boolean {
    return this.running.has(callId);
  }

  runningCalls(): RunningToolCall[] {
    return [...this.running.values()].map((call) => call.view);
  }

  /** Quit: deny every pending request, cancel running calls and wait for them (bounded). */
  async dispose(waitMs = 3000): Promise<void> {
    this.disposed = true;
    this.deps.broker.dispose();
    for (const call of this.running.values()) call.controller.abort(new Error('Patchbay is quitting'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  private async call(request: ToolCallRequest): Promise<ToolCallDone> {
    const callId = request.callId ?? crypto.randomUUID();
    if (this.running.has(callId)) throw new HostCallError('invalid_input', 'A call with this id is already running');
    const requestedAt = this.deps.clock.now();
    const connection = this.deps.connection(request.serverId);
    const base: CallBase = {
      callId,
      serverId: request.serverId,
      serverName: connection?.name ?? request.serverId,
      tool: request.tool,
      origin: request.origin,
    };
    const refuse = (by: AuditDecider, error: say.CallError, status: ToolRunStatus, tool?: Tool) =>
      this.refuse(base, request.args, requestedAt, by, error, status, tool, request.chat);

    if (this.disposed) return refuse('host', QUITTING, 'denied');
    const ready = this.deps.readyNow(request.serverId);
    const tool = ready?.catalog.tools.find((candidate) => candidate.name === request.tool);
    if (!connection || !ready || !tool) {
      const error = ready
        ? say.unknownTool(base.serverName, request.tool)
        : say.notRunning(base.serverName, request.tool, connection?.state.status ?? 'stopped');
      if (request.origin === 'user') throw new HostCallError('invalid_input', error.message);
      return refuse('host', error, 'protocol_error');
    }
    if (request.origin !== 'user' && !visibleTo(tool, request.origin))
      return refuse('host', say.notForCaller(base.serverName, tool.name, request.origin), 'denied', tool);
    return this.callValid(base, connection, tool, { ...request, args: withoutNullOptionals(tool.inputSchema, request.args) }, requestedAt);
  }

  /** The call to a tool the caller may use, its arguments as they will be sent: validated, decided, sent. */
  private async callValid(
    base: CallBase,
    connection: LiveServer,
    tool: Tool,
    request: ToolCallRequest,
    requestedAt: Date,
  ): Promise<ToolCallDone> {
    const refuse = (by: AuditDecider, error: say.CallError, status: ToolRunStatus, tool?: Tool) =>
      this.refuse(base, request.args, requestedAt, by, error, status, tool, request.chat);
    const issues = validateArgs(tool.inputSchema, request.args);
    if (issues.length > 0) {
      const error = say.invalidArgs(base.serverName, tool.name, describeIssues(issues));
      if (request.origin === 'user')
        throw new HostCallError(
          'invalid_input',
          error.message,
          issues.map((i) => ({ path: ['args', ...i.path], message: i.message })),
        );
      return refuse('host', error, 'protocol_error', tool);
    }
    const guarded: GuardCall | undefined = this.deps.guard && {
      serverId: base.serverId,
      serverName: base.serverName,
      tool,
      args: request.args,
      origin: request.origin,
      ...(request.chat ? { conversationId: request.chat.conversationId } : {}),
    };
    // One place decides before anything else: a Deny rule holds the call whoever asks for it, the user included.
    const judged = guarded ? await this.deps.guard!.judge(guarded) : NO_JUDGEMENT;
    if (judged.kind === 'deny')
      return refuse('policy', { kind: 'denied-by-rule', message: judged.message, note: ruleLabel(judged.rule) }, 'denied', tool);
    const decision: Decision | ToolCallDone =
      request.origin === 'user'
        ? { by: 'user', note: 'Run from the Tools panel', args: request.args }
        : await this.decide(base, connection, tool, request, refuse, judged);
    if ('status' in decision) return decision;
    const done = await this.send(base, connection, tool, decision, requestedAt, request);
    if (guarded) await this.deps.guard!.afterCall(guarded, done.status === 'ok').catch(() => undefined);
    return done;
  }

  /** A model call: a standing decision, or the user's answer through the broker. */
  private async decide(
    base: CallBase,
    connection: LiveServer,
    tool: Tool,
    request: ToolCallRequest,
    refuse: (by: AuditDecider, error: say.CallError, status: ToolRunStatus, tool?: Tool) => Promise<ToolCallDone>,
    judged: Judgement,
  ): Promise<Decision | ToolCallDone> {
    // A rule that asks, or the three-way risk, sets standing decisions aside: the dialog says which.
    const setAside = judged.kind === 'ask' || (judged.kind === 'allow' && judged.risk !== undefined);
    const rule = judged.kind === 'ask' || judged.kind === 'allow' ? judged.rule : undefined;
    const risk = judged.kind === 'ask' || judged.kind === 'allow' ? judged.risk : undefined;
    if (judged.kind === 'allow' && !setAside) return { by: 'policy', note: ruleLabel(judged.rule), args: request.args };
    const verdict = setAside ? ({ kind: 'ask', reason: 'ask' } as const) : this.deps.policies.evaluate(base.serverId, tool);
    if (verdict.kind === 'deny') return refuse('policy', say.deniedByPolicy(base.serverName, tool.name), 'denied', tool);
    if (verdict.kind === 'allow') return { by: 'policy', note: verdict.note, args: request.args };
    this.deps.events.emit('toolCallWaiting', request.chat ? { callId: base.callId, chat: request.chat } : { callId: base.callId });
    const answer = await this.deps.broker.ask(
      {
        serverId: base.serverId,
        serverName: base.serverName,
        tool,
        args: request.args,
        ...verdict,
        origin: request.origin === 'app' ? 'app' : 'model',
        ...(rule ? { rule: ruleLabel(rule) } : {}),
        ...(risk ? { risk } : {}),
      },
      request.signal,
    );
    if (answer.kind === 'deny') {
      // The caller gave up while the dialog was open (the chat's Stop): the call was cancelled, not denied.
      if (request.signal?.aborted) return refuse('user', say.deniedByAnswer(base.serverName, tool.name, answer), 'cancelled', tool);
      const by: AuditDecider = answer.outcome === 'denied' ? 'user' : answer.outcome === 'timed_out' ? 'timeout' : 'host';
      return refuse(by, say.deniedByAnswer(base.serverName, tool.name, answer), 'denied', tool);
    }
    // The user approved the definition they were shown: if it changed meanwhile, that approval does not hold.
    const now = connection.catalog.tools.find((candidate) => candidate.name === tool.name);
    if (this.deps.readyNow(base.serverId) !== connection || !now || definitionHash(now) !== definitionHash(tool)) {
      return refuse('host', say.changedWhileAsking(base.serverName, tool.name), 'denied', tool);
    }
    if (answer.always) {
      this.deps.policies.allowAlways(base.serverId, tool);
      this.deps.onPoliciesChanged();
    }
    // Arguments "edited" back to what the model sent are no edit.
    const edited = answer.edited && canonicalJson(answer.args) !== canonicalJson(request.args);
    return {
      by: 'user',
      note: `${answer.always ? 'Always allow' : 'Allow once'}${edited ? ' (arguments edited)' : ''}${rule ? `; asked by ${ruleLabel(rule)}` : ''}${risk ? '; asked because of the three-way risk' : ''}`,
      args: answer.args,
      edited,
    };
  }

  /** Write-ahead audit row, then the call itself, then its outcome. */
  private async send(
    base: CallBase,
    connection: LiveServer,
    tool: Tool,
    decision: Decision,
    requestedAt: Date,
    request: ToolCallRequest,
  ): Promise<ToolCallDone> {
    const redactor = await this.record.redactor(base.serverId);
    if (this.disposed) return this.refuse(base, decision.args, requestedAt, 'host', QUITTING, 'denied', tool, request.chat);
    const startedAt = this.deps.clock.now();
    try {
      // Safe (in the audit journal) before anything is sent.
      await this.record.writeAhead(base, tool, decision, requestedAt, startedAt, redactor);
    } catch (failure) {
      return this.refuse(
        base,
        decision.args,
        requestedAt,
        'host',
        say.notRecorded(base.serverName, tool.name, failure),
        'protocol_error',
        tool,
        request.chat,
      );
    }

    // One controller per call: the user's Cancel, quitting and the caller's signal abort it, and the
    // connection uses it as the request's own (see RequestCallOptions.controller).
    const controller = new RequestAbort();
    const callerSignal = request.signal;
    const onAbort = callerSignal && (() => controller.abort(callerSignal.reason));
    if (onAbort) callerSignal.addEventListener('abort', onAbort, { once: true });
    // Field by field rather than spreads: this runs for every call.
    const view: RunningToolCall = {
      callId: base.callId,
      serverId: base.serverId,
      serverName: base.serverName,
      tool: base.tool,
      origin: base.origin,
      startedAt: startedAt.toISOString(),
    };
    if (request.chat) view.chat = request.chat;
    if (decision.edited) view.editedArgs = decision.args;
    this.running.set(base.callId, { view, controller });
    const progress = new ProgressForwarder(view, this.deps.events);
    this.deps.events.emit('toolCallStarted', view);
    // Named in the Protocol log: a call a server's app asked for.
    const initiator = base.origin === 'app' ? `the app of ${base.serverName}` : undefined;
    const t0 = performance.now();
    let result: CallToolResult;
    let status: ToolRunStatus;
    let error: say.CallError | undefined;
    try {
      result =
        this.deps.tasks && runsAsTask(connection.state, tool)
          ? await this.deps.tasks.run({
              connection,
              serverId: base.serverId,
              tool: tool.name,
              args: decision.args,
              callId: base.callId,
              origin: base.origin,
              signal: controller.realSignal(),
              cancel: () => this.cancel(base.callId),
              onProgress: progress.push,
              ...(initiator ? { initiator } : {}),
              onTask: (task) => {
                view.task = task;
                this.deps.events.emit(
                  'toolCallTask',
                  view.chat ? { callId: base.callId, chat: view.chat, task } : { callId: base.callId, task },
                );
              },
            })
          : await connection.callTool(tool.name, decision.args, {
              controller,
              onProgress: progress.push,
              ...(initiator ? { initiator } : {}),
            });
      status = result.isError ? 'tool_error' : 'ok';
    } catch (failure) {
      const explained = say.requestFailure(base.serverName, tool.name, failure);
      error = { kind: explained.kind, message: explained.message };
      status = explained.cancelled ? 'cancelled' : 'protocol_error';
      result = say.errorResult(explained.message);
    } finally {
      progress.stop();
      this.running.delete(base.callId);
      if (onAbort) callerSignal.removeEventListener('abort', onAbort);
    }
    const durationMs = performance.now() - t0;
    this.record.finished(base, status, result, error, durationMs, redactor, request.chat);
    const done: ToolCallDone = {
      callId: base.callId,
      serverId: base.serverId,
      serverName: base.serverName,
      tool: base.tool,
      origin: base.origin,
      status,
      result,
      decidedBy: decision.by,
      definition: tool,
      startedAt,
      durationMs,
    };
    if (error) done.error = error;
    if (decision.edited) done.editedArgs = decision.args;
    return done;
  }

  /** A call that never left: recorded, and reported to the model as an error result. */
  private async refuse(
    base: CallBase,
    args: Record<string, unknown>,
    requestedAt: Date,
    by: AuditDecider,
    error: say.CallError,
    status: ToolRunStatus,
    tool?: Tool,
    chat?: ChatCallRef,
  ): Promise<ToolCallDone> {
    await this.record.refused(base, args, requestedAt, by, error, status, tool, chat);
    return {
      ...base,
      status,
      result: say.errorResult(error.message),
      error,
      decidedBy: by,
      ...(tool ? { definition: tool } : {}),
      startedAt: this.deps.clock.now(),
      durationMs: 0,
    };
  }
}

const QUITTING: say.CallError = { kind: 'shutdown', message: 'Patchbay is quitting; the tool was not run.' };
