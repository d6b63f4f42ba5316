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
import { HostCallError, type AuditDecider, type RuleView, type RunningToolCall, type ToolRunStatus } from '@contract';
import type { AuditStore } from '../audit/audit-store';
import type { SecretValues } from '../audit/secret-values';
import type { ConsentBroker } from '../consent/consent-broker';
import type { ConsentPolicies, Verdict } from '../consent/consent-policies';
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
import { CallRecorder, type Decision } from './call-recorder';
import { ProgressForwarder } from './progress-forwarder';
import {
  endedCall,
  grown,
  identityOf,
  keyOf,
  namedCall,
  withArgs,
  type Refusal,
  type ToolCall,
  type ToolCallDone,
  type ToolCallRequest,
} from './tool-call';

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
  async callToolWithConsent(request: ToolCallRequest): Promise<ToolCallDone> {
    // Kept while it runs, so quitting can wait for it.
    const call = this.call(request);
    this.inFlight.add(call);
    try {
      return await call;
    } finally {
      this.inFlight.delete(call);
    }
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
    const connection = this.deps.connection(request.serverId);
    const serverName = connection?.name ?? request.serverId;
    const call = namedCall(request, { callId, serverName, requestedAt: this.deps.clock.now(), args: request.args });

    if (this.disposed) return this.refuse(call, { decidedBy: 'host', error: QUITTING, status: 'denied' });
    const ready = this.deps.readyNow(request.serverId);
    const tool = ready?.catalog.tools.find((candidate) => candidate.name === request.tool);
    if (!connection || !ready || !tool) {
      const error = ready
        ? say.unknownTool(call.serverName, request.tool)
        : say.notRunning(call.serverName, request.tool, connection?.state.status ?? 'stopped');
      if (request.origin === 'user') throw new HostCallError('invalid_input', error.message);
      return this.refuse(call, { decidedBy: 'host', error, status: 'protocol_error' });
    }
    if (request.origin !== 'user' && !visibleTo(tool, request.origin))
      return this.refuse(call, {
        decidedBy: 'host',
        error: say.notForCaller(call.serverName, tool.name, request.origin),
        status: 'denied',
        definition: tool,
      });
    // The arguments as they will be sent: nulls for optional fields dropped (a model may send them).
    return this.callValid(withArgs(call, withoutNullOptionals(tool.inputSchema, call.args)), connection, tool);
  }

  /** The call to a tool the caller may use, its arguments as they will be sent: validated, decided, sent. */
  private async callValid(call: ToolCall, connection: LiveServer, tool: Tool): Promise<ToolCallDone> {
    const issues = validateArgs(tool.inputSchema, call.args);
    if (issues.length > 0) {
      const error = say.invalidArgs(call.serverName, tool.name, describeIssues(issues));
      if (call.origin === 'user')
        throw new HostCallError(
          'invalid_input',
          error.message,
          issues.map((i) => ({ path: ['args', ...i.path], message: i.message })),
        );
      return this.refuse(call, { decidedBy: 'host', error, status: 'protocol_error', definition: tool });
    }
    const guarded: GuardCall | undefined = this.deps.guard && {
      serverId: call.serverId,
      serverName: call.serverName,
      tool,
      args: call.args,
      origin: call.origin,
      ...(call.chat ? { conversationId: call.chat.conversationId } : {}),
    };
    // One place decides before anything else: a Deny rule holds the call whoever asks for it, the user included.
    const judged = guarded ? await this.deps.guard!.judge(guarded) : NO_JUDGEMENT;
    if (judged.kind === 'deny') {
      const error: say.CallError = { kind: 'denied-by-rule', message: judged.message, note: ruleLabel(judged.rule) };
      return this.refuse(call, { decidedBy: 'policy', error, status: 'denied', definition: tool });
    }
    const decision: Decision | ToolCallDone =
      call.origin === 'user'
        ? { by: 'user', note: 'Run from the Tools panel', args: call.args }
        : await this.decide(call, connection, tool, judged);
    if ('status' in decision) return decision;
    const done = await this.send(call, connection, tool, decision);
    const after = guarded && this.afterCall(guarded, done.status === 'ok');
    if (after) await after;
    return done;
  }

  /**
   * The guard's look at what came back: best-effort, it never changes the call's outcome. A promise
   * only when the guard still has something to look up (most calls: none, and no turn waited for).
   */
  private afterCall(guarded: GuardCall, succeeded: boolean): Promise<void> | undefined {
    try {
      return this.deps.guard!.afterCall(guarded, succeeded)?.catch(() => undefined);
    } catch {
      return undefined;
    }
  }

  /** A model call: a standing decision, or the user's answer through the broker (see `ask`). */
  private async decide(call: ToolCall, connection: LiveServer, tool: Tool, judged: Judgement): Promise<Decision | ToolCallDone> {
    // A rule that asks, or the three-way risk, sets standing decisions aside: the dialog says which.
    const setAside = judged.kind === 'ask' || (judged.kind === 'allow' && judged.risk !== undefined);
    const rule = judged.kind === 'ask' || judged.kind === 'allow' ? judged.rule : undefined;
    const risk = judged.kind === 'ask' || judged.kind === 'allow' ? judged.risk : undefined;
    if (judged.kind === 'allow' && !setAside) return { by: 'policy', note: ruleLabel(judged.rule), args: call.args };
    const verdict = setAside ? ({ kind: 'ask', reason: 'ask' } as const) : this.deps.policies.evaluate(call.serverId, tool);
    if (verdict.kind === 'deny')
      return this.refuse(call, {
        decidedBy: 'policy',
        error: say.deniedByPolicy(call.serverName, tool.name),
        status: 'denied',
        definition: tool,
      });
    if (verdict.kind === 'allow') return { by: 'policy', note: verdict.note, args: call.args };
    return this.ask(call, connection, tool, verdict, rule, risk);
  }

  /** No standing decision holds: the user answers through the broker (the consent dialog). */
  private async ask(
    call: ToolCall,
    connection: LiveServer,
    tool: Tool,
    verdict: Extract<Verdict, { kind: 'ask' }>,
    rule: RuleView | undefined,
    risk: string | undefined,
  ): Promise<Decision | ToolCallDone> {
    this.deps.events.emit('toolCallWaiting', keyOf(call));
    const answer = await this.deps.broker.ask(
      {
        serverId: call.serverId,
        serverName: call.serverName,
        tool,
        args: call.args,
        ...verdict,
        origin: call.origin === 'app' ? 'app' : 'model',
        ...(rule ? { rule: ruleLabel(rule) } : {}),
        ...(risk ? { risk } : {}),
      },
      call.signal,
    );
    if (answer.kind === 'deny') {
      const error = say.deniedByAnswer(call.serverName, tool.name, answer);
      // The caller gave up while the dialog was open (the chat's Stop): the call was cancelled, not denied.
      if (call.signal?.aborted) return this.refuse(call, { decidedBy: 'user', error, status: 'cancelled', definition: tool });
      const decidedBy: AuditDecider = answer.outcome === 'denied' ? 'user' : answer.outcome === 'timed_out' ? 'timeout' : 'host';
      return this.refuse(call, { decidedBy, error, status: 'denied', definition: tool });
    }
    // The user approved the definition they were shown: if it changed meanwhile, that approval does not hold.
    const now = connection.catalog.tools.find((candidate) => candidate.name === tool.name);
    if (this.deps.readyNow(call.serverId) !== connection || !now || definitionHash(now) !== definitionHash(tool)) {
      const error = say.changedWhileAsking(call.serverName, tool.name);
      return this.refuse(call, { decidedBy: 'host', error, status: 'denied', definition: tool });
    }
    if (answer.always) {
      this.deps.policies.allowAlways(call.serverId, tool);
      this.deps.onPoliciesChanged();
    }
    // Arguments "edited" back to what the model sent are no edit.
    const edited = answer.edited && canonicalJson(answer.args) !== canonicalJson(call.args);
    return {
      by: 'user',
      note: `${answer.always ? 'Always allow' : 'Allow once'}${edited ? ' (arguments edited)' : ''}${rule ? `; asked by ${ruleLabel(rule)}` : ''}${risk ? '; asked because of the three-way risk' : ''}`,
      args: answer.args,
      edited,
    };
  }

  /** Write-ahead audit row, then the call itself, then its outcome. */
  private async send(asked: ToolCall, connection: LiveServer, tool: Tool, decision: Decision): Promise<ToolCallDone> {
    // From here on the call is the decided one: it runs (and is recorded) with the decision's arguments.
    const call = withArgs(asked, decision.args);
    // Opened once per server: later calls take it as it is, without waiting a turn for a settled promise.
    const redactor = this.record.openRedactor(call.serverId) ?? (await this.record.redactor(call.serverId));
    if (this.disposed) return this.refuse(call, { decidedBy: 'host', error: QUITTING, status: 'denied', definition: tool });
    const startedAt = this.deps.clock.now();
    try {
      // Safe (in the audit journal) before anything is sent.
      await this.record.writeAhead(call, tool, decision, startedAt, redactor);
    } catch (failure) {
      const error = say.notRecorded(call.serverName, tool.name, failure);
      return this.refuse(call, { decidedBy: 'host', error, status: 'protocol_error', definition: tool });
    }

    // One controller per call: the user's Cancel, quitting and the caller's signal abort it, and the
    // connection uses it as the request's own (see RequestCallOptions.controller).
    const controller = new RequestAbort();
    const callerSignal = call.signal;
    const onAbort = callerSignal && (() => controller.abort(callerSignal.reason));
    if (onAbort) callerSignal.addEventListener('abort', onAbort, { once: true });
    // What the renderer sees of the running call (the snapshot, `toolCallStarted`): it crosses the IPC.
    const editedArgs = decision.edited ? decision.args : undefined;
    const view: RunningToolCall = grown(identityOf(call), {
      startedAt: startedAt.toISOString(),
      ...(call.chat ? { chat: call.chat } : {}),
      ...(editedArgs ? { editedArgs } : {}),
    });
    this.running.set(call.callId, { view, controller });
    const progress = new ProgressForwarder(view, this.deps.events);
    this.deps.events.emit('toolCallStarted', view);
    // Named in the Protocol log: a call a server's app asked for.
    const initiator = call.origin === 'app' ? `the app of ${call.serverName}` : undefined;
    const t0 = performance.now();
    let result: CallToolResult;
    let status: ToolRunStatus;
    let error: say.CallError | undefined;
    try {
      result =
        this.deps.tasks && runsAsTask(connection.state, tool)
          ? await this.deps.tasks.run({
              connection,
              serverId: call.serverId,
              tool: tool.name,
              args: call.args,
              callId: call.callId,
              origin: call.origin,
              signal: controller.realSignal(),
              cancel: () => this.cancel(call.callId),
              onProgress: progress.push,
              ...(initiator ? { initiator } : {}),
              onTask: (task) => {
                view.task = task;
                this.deps.events.emit('toolCallTask', grown(keyOf(view), { task }));
              },
            })
          : await connection.callTool(tool.name, call.args, {
              controller,
              onProgress: progress.push,
              ...(initiator ? { initiator } : {}),
            });
      status = result.isError ? 'tool_error' : 'ok';
    } catch (failure) {
      const explained = say.requestFailure(call.serverName, tool.name, failure);
      error = { kind: explained.kind, message: explained.message };
      status = explained.cancelled ? 'cancelled' : 'protocol_error';
      result = say.errorResult(explained.message);
    } finally {
      progress.stop();
      this.running.delete(call.callId);
      if (onAbort) callerSignal.removeEventListener('abort', onAbort);
    }
    const done = endedCall(call, {
      status,
      result,
      error,
      decidedBy: decision.by,
      definition: tool,
      editedArgs,
      startedAt,
      durationMs: performance.now() - t0,
    });
    this.record.finished(done, redactor);
    return done;
  }

  /** A call that never left: ended with its refusal as the model's error result, and recorded. */
  private async refuse(call: ToolCall, refusal: Refusal): Promise<ToolCallDone> {
    const done = endedCall(call, {
      ...refusal,
      result: say.errorResult(refusal.error.message),
      startedAt: this.deps.clock.now(),
      durationMs: 0,
    });
    await this.record.refused(done);
    return done;
  }
}

const QUITTING: say.CallError = { kind: 'shutdown', message: 'Patchbay is quitting; the tool was not run.' };
