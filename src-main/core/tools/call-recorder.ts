/**
 * The record of every tool call: the audit row (redacted, write-ahead for calls that go out) and the
 * events the renderer follows. Kept apart from the router so the router reads as the decision flow.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AuditDecider, ToolEvents } from '@contract';
import type { AuditDecisionRow } from '../audit/audit-rows';
import type { AuditStore } from '../audit/audit-store';
import { PATTERNS_ONLY, type Redactor } from '../audit/redact';
import type { SecretValues } from '../audit/secret-values';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { grown, identityOf, keyOf, type Refusal, type ToolCall, type ToolCallDone } from './tool-call';
import { definitionHash } from '../tool-definition/definition';
import { auditArgs } from './audit-args';

/** Who let the call out, and with which arguments. */
export interface Decision {
  by: AuditDecider;
  note: string;
  /** The arguments the call runs with. */
  args: Record<string, unknown>;
  /** The user changed the model's arguments in the consent dialog (`args` are theirs). */
  edited?: boolean;
}

export class CallRecorder {
  constructor(private readonly deps: { audit: AuditStore; secretValues: SecretValues; events: HostEventBus; clock: Clock }) {}

  /** The server's redactor (its secret values and token shapes), opened once per server. */
  redactor(serverId: string): Promise<Redactor> {
    return this.deps.secretValues.get(serverId).catch(() => PATTERNS_ONLY);
  }

  /** The server's redactor when it is open already: a call then takes it without waiting a turn. */
  openRedactor(serverId: string): Redactor | undefined {
    return this.deps.secretValues.openNow(serverId);
  }

  /** Makes the decision row safe before the call leaves (rejects when it cannot: the call must not go). */
  writeAhead(call: ToolCall, tool: Tool, decision: Decision, decidedAt: Date, redactor: Redactor): Promise<void> {
    return this.deps.audit.writeAhead(
      grown(identityOf(call), {
        decidedBy: decision.by,
        decision: 'allowed' as const,
        decisionNote: decision.note,
        definitionHash: definitionHash(tool),
        ...auditArgs(decision.args, redactor),
        requestedAt: call.requestedAt.toISOString(),
        decidedAt: decidedAt.toISOString(),
      }),
    );
  }

  /** The call ran and ended (any way): its outcome (batched) and the event. */
  finished(done: ToolCallDone, redactor: Redactor): void {
    const { status, result, error, durationMs } = done;
    const ran = status === 'ok' || status === 'tool_error';
    const note = error?.message ?? (status === 'tool_error' ? firstText(result) : undefined);
    this.deps.audit.finish({
      callId: done.callId,
      finishedAt: this.deps.clock.now().toISOString(),
      durationMs,
      outcome: status,
      outcomeNote: note ? redactor.redact(note.slice(0, 500)) : undefined,
      resultBytes: ran ? approximateSize(result) : undefined,
    });
    this.deps.events.emit('toolCallFinished', finishedEvent(done));
  }

  /** A call that never left: decision and outcome in one row, and the event. */
  async refused(done: ToolCallDone & Refusal): Promise<void> {
    const { decidedBy, error, status, definition } = done;
    const redactor = await this.redactor(done.serverId);
    const now = this.deps.clock.now().toISOString();
    const row: AuditDecisionRow = grown(identityOf(done), {
      decidedBy,
      decision: 'denied' as const,
      decisionNote: redactor.redact(error.note ?? error.message),
      ...(definition ? { definitionHash: definitionHash(definition) } : {}),
      ...auditArgs(done.args, redactor),
      requestedAt: done.requestedAt.toISOString(),
      decidedAt: now,
    });
    const outcome = status === 'denied' || status === 'cancelled' ? status : 'protocol_error';
    this.deps.audit.recordRefused(row, { finishedAt: now, durationMs: 0, outcome });
    this.deps.events.emit('toolCallFinished', finishedEvent(done));
  }
}

/** The `toolCallFinished` event of a call, from its record (the contract's picks of it). */
function finishedEvent(done: ToolCallDone): ToolEvents['toolCallFinished'] {
  const { serverId, tool, origin, status, durationMs } = done;
  return grown(keyOf(done), { serverId, tool, origin, status, durationMs });
}

/** Characters of text, base64 and JSON in a result, without serializing big texts. */
export function approximateSize(result: CallToolResult): number {
  let size = 0;
  for (const block of (result.content ?? []) as Record<string, unknown>[]) {
    if (typeof block.text === 'string') size += block.text.length;
    else if (typeof block.data === 'string') size += block.data.length;
    else size += JSON.stringify(block)?.length ?? 0;
  }
  if (result.structuredContent !== undefined) size += JSON.stringify(result.structuredContent)?.length ?? 0;
  return size;
}

function firstText(result: CallToolResult): string | undefined {
  const block = (result.content ?? []).find((b) => b.type === 'text') as { text?: string } | undefined;
  return block?.text;
}
