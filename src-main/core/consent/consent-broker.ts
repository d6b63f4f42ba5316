/**
 * The consent broker: every model-initiated tool call that no standing decision covers asks the user
 * — a `tool` question of the one queue (questions/), which orders the questions, times them out and
 * settles each exactly once. This broker says what the question shows and what each end means. Fail
 * closed: anything but an explicit "allow" is a denial (timed out, withdrawn, at shutdown).
 */
import type { Tool } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import { type ConsentOutcome, type DiffLine, HostCallError, type JsonObject, type ToolCallIdentity } from '@contract';
import type { Clock } from '../clock';
import type { QuestionQueue, Settlement } from '../questions/question-queue';
import { describeIssues, validateArgs } from '../tool-definition/args-validator';
import { toolHints } from '../tool-definition/definition';

/** What the router asks about: whose call, and the definition itself rather than the tool's name. */
export interface ConsentAsk extends Pick<ToolCallIdentity, 'serverId' | 'serverName'> {
  tool: Tool;
  args: Record<string, unknown>;
  reason: 'ask' | 'changed';
  diff?: DiffLine[];
  /** Who asks for the call: the model (default) or the server's app. */
  origin?: 'model' | 'app';
  /** The rule that asks (in words), when one does. */
  rule?: string;
  /** Why standing decisions are set aside (the three-way risk), in one sentence. */
  risk?: string;
}

export type ConsentAnswer =
  | { kind: 'allow'; always: boolean; args: Record<string, unknown>; edited: boolean; decidedAt: Date }
  | { kind: 'deny'; outcome: Exclude<ConsentOutcome, 'allowed'>; note: string; decidedAt: Date };

export interface ConsentBrokerOptions {
  questions: QuestionQueue;
  clock: Clock;
  /** Read at each request, so a changed setting applies to the next one. */
  timeoutMs(): number;
}

export class ConsentBroker {
  constructor(private readonly options: ConsentBrokerOptions) {}

  /** Asks the user; the promise settles exactly once. An aborted `signal` withdraws the question. */
  ask(ask: ConsentAsk, signal?: AbortSignal): Promise<ConsentAnswer> {
    const { questions, clock } = this.options;
    const now = clock.now();
    if (questions.isClosed('tool'))
      return Promise.resolve({ kind: 'deny', outcome: 'shutdown', note: 'Patchbay is quitting', decidedAt: now });
    if (signal?.aborted) return Promise.resolve({ kind: 'deny', outcome: 'withdrawn', note: 'The request was cancelled', decidedAt: now });
    const timeoutMs = this.options.timeoutMs();
    const hints = toolHints(ask.tool);
    const args = ask.args as JsonObject;
    return new Promise<ConsentAnswer>((resolve) => {
      const deny = (outcome: Exclude<ConsentOutcome, 'allowed'>, note: string): Settlement<'tool'> => ({
        outcome,
        note,
        effects: () => resolve({ kind: 'deny', outcome, note, decidedAt: clock.now() }),
      });
      questions.ask<'tool'>(
        {
          kind: 'tool',
          id: crypto.randomUUID(),
          serverId: ask.serverId,
          serverName: ask.serverName,
          tool: ask.tool.name,
          ...(ask.tool.title ? { title: ask.tool.title } : {}),
          ...(ask.tool.description ? { description: ask.tool.description } : {}),
          ...(hints ? { annotations: hints } : {}),
          inputSchema: ask.tool.inputSchema as JsonObject,
          args,
          reason: ask.reason,
          ...(ask.origin === 'app' ? { origin: 'app' as const } : {}),
          ...(ask.diff ? { diff: ask.diff } : {}),
          ...(ask.rule ? { rule: ask.rule } : {}),
          ...(ask.risk ? { risk: ask.risk } : {}),
          requestedAt: now.toISOString(),
        },
        {
          answer: ({ decision, editedArgs }) => {
            if (decision === 'deny') return deny('denied', 'The user declined');
            if (editedArgs !== undefined) {
              const issues = validateArgs(ask.tool.inputSchema, editedArgs);
              if (issues.length > 0) {
                throw new HostCallError(
                  'invalid_input',
                  `The edited arguments do not match the tool's schema: ${describeIssues(issues)}`,
                  issues.map((i) => ({ path: ['editedArgs', ...i.path], message: i.message })),
                );
              }
            }
            const decidedAt = clock.now();
            const answer: ConsentAnswer = {
              kind: 'allow',
              always: decision === 'always_allow',
              args: editedArgs ?? ask.args,
              edited: editedArgs !== undefined,
              decidedAt,
            };
            return { outcome: 'allowed', effects: () => resolve(answer) };
          },
          timedOut: () => {
            const minutes = Math.round(timeoutMs / 60_000);
            return deny('timed_out', `Nobody answered within ${minutes >= 1 ? `${minutes} min` : `${timeoutMs} ms`}`);
          },
          withdrawn: (note) => deny('withdrawn', note),
          shutdown: (note) => deny('shutdown', note),
        },
        { timeoutMs, ...(signal ? { signal } : {}), cancelNote: 'The request was cancelled' },
      );
    });
  }

  /** The server disconnected, stopped or was removed: its requests are withdrawn (denied). */
  withdrawServer(serverId: string, note: string): void {
    this.options.questions.withdrawServer(serverId, note, ['tool']);
  }

  /** Quit: every pending request is denied, and any later one too. */
  dispose(note = 'Patchbay is quitting'): void {
    this.options.questions.shutdown(['tool'], note);
  }
}
