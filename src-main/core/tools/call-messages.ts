/**
 * The words of a tool call that did not (or could not) run, for people and for the model. Each one
 * names the server and the tool.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ConsentAnswer } from '../consent/consent-broker';
import { ServerRequestError } from '../servers/connection/request-errors';

/** A failed call in words, with a short kind for code. */
export interface CallError {
  kind: string;
  message: string;
  /** What the audit trail records as the decision, when it differs from what the model is told (the rule that denied it). */
  note?: string;
}

const q = (s: string) => `"${s}"`;

/** The result the model gets for a call that did not run or failed before the tool answered. */
export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

export function notRunning(server: string, tool: string, status: string): CallError {
  return { kind: 'not-ready', message: `Server ${q(server)} is not running (${status}); tool ${q(tool)} was not called.` };
}

export function unknownTool(server: string, tool: string): CallError {
  return { kind: 'unknown-tool', message: `Server ${q(server)} has no tool ${q(tool)}; it was not called.` };
}

export function invalidArgs(server: string, tool: string, details: string): CallError {
  return {
    kind: 'invalid-params',
    message: `Invalid arguments for tool ${q(tool)} on server ${q(server)}: ${details}. The tool was not called.`,
  };
}

/** A model call of an app-only tool, or an app call of a model-only tool (`_meta.ui.visibility`). */
export function notForCaller(server: string, tool: string, caller: 'model' | 'app'): CallError {
  return caller === 'model'
    ? { kind: 'not-for-model', message: `Tool ${q(tool)} on server ${q(server)} is for the server's app only; it was not run.` }
    : { kind: 'not-for-app', message: `Tool ${q(tool)} on server ${q(server)} is not offered to the server's app; it was not run.` };
}

export function deniedByPolicy(server: string, tool: string): CallError {
  return { kind: 'denied', message: `The user has chosen to always deny tool ${q(tool)} on server ${q(server)}; it was not run.` };
}

export function changedWhileAsking(server: string, tool: string): CallError {
  return {
    kind: 'changed',
    message: `Tool ${q(tool)} on server ${q(server)} changed while waiting for the user's answer; it was not run.`,
  };
}

/** The audit row could not be committed: a call that cannot be recorded is not sent. */
export function notRecorded(server: string, tool: string, error: unknown): CallError {
  const cause = error instanceof Error ? error.message : String(error);
  return {
    kind: 'storage',
    message: `Patchbay could not record the call in its audit trail (${cause}), so tool ${q(tool)} on server ${q(server)} was not run.`,
  };
}

/** A denial from the broker: declined, timed out, withdrawn or quitting. */
export function deniedByAnswer(server: string, tool: string, answer: Extract<ConsentAnswer, { kind: 'deny' }>): CallError {
  const call = `tool ${q(tool)} on server ${q(server)}`;
  switch (answer.outcome) {
    case 'denied':
      return { kind: 'denied', message: `The user declined to run ${call}.` };
    case 'timed_out':
      return { kind: 'timed-out', message: `Nobody approved ${call} in time (${answer.note}); it was not run.` };
    case 'withdrawn':
      return { kind: 'withdrawn', message: `The request to run ${call} was withdrawn (${answer.note}); it was not run.` };
    case 'shutdown':
      return { kind: 'shutdown', message: `Patchbay was quitting, so ${call} was not run.` };
  }
}

/** A failure of the call itself (timeout, crash, JSON-RPC error…), in words that name server and tool. */
export function requestFailure(server: string, tool: string, error: unknown): CallError & { cancelled: boolean } {
  if (error instanceof ServerRequestError) {
    if (/does not match the tool's output schema|did not return structured content/.test(error.message)) {
      const detail = error.message.replace(/^.*?: (?=Structured|Tool )/, '');
      return {
        kind: 'invalid-output',
        message: `Tool ${q(tool)} on server ${q(server)} returned a result that breaks its own output schema: ${detail}`,
        cancelled: false,
      };
    }
    return { kind: error.kind, message: error.message, cancelled: error.kind === 'cancelled' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'failed', message: `Tool ${q(tool)} on server ${q(server)} failed: ${message}`, cancelled: false };
}
