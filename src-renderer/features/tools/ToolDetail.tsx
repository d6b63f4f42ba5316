import { useId, useState } from 'react';
import type { JsonObject, RunningToolCall, ToolCallOutcome, ToolView } from '@contract';
import { AppView } from '../mcp-apps/AppView';
import { AnnotationHints } from './AnnotationHints';
import type { LoadPart } from './result/ResultBlocks';
import { ToolResultView } from './result/ToolResultView';
import { RunningCall } from './RunningCall';
import { SchemaForm } from './schema/SchemaForm';
import { Select } from '../../ui/Select';
import { AddRuleDialog } from '../rules/AddRuleDialog';
import { TimelineButton } from '../telemetry/TimelineButton';
import { ContentFlags } from '../../ui/ContentFlags';
import { useAppStore } from '../../stores/use-app-store';

/** The tool's own standing decision, as the select shows it. */
export type ToolPolicyChoice = 'default' | 'allow' | 'deny' | 'ask';

export interface ToolDetailProps {
  tool: ToolView;
  /** The server's name, as a rule added here names it. */
  serverName: string;
  policyChoice: ToolPolicyChoice;
  running: RunningToolCall[];
  outcome?: ToolCallOutcome;
  /** The arguments `outcome` ran with (for the tool's app). */
  lastArgs?: JsonObject;
  onRun(args: JsonObject): Promise<unknown>;
  onCancel(callId: string): Promise<unknown>;
  onPolicy(choice: ToolPolicyChoice): void;
  loadPart(callId: string): LoadPart;
}

const STATE_NOTES: Record<ToolView['policy'], string> = {
  ask: 'When the model asks to run it, you are asked first.',
  allow: 'The model may run it without asking (this exact definition).',
  deny: 'The model may not run it.',
  trusted: 'The model may run it without asking: you trust all tools of this server (as they were then).',
  suspended: 'Suspended: the server changed this tool since you allowed it. The next call asks again and shows what changed.',
};

/** The decision in force for a model's call, in a few words (the tool list and the select's default say it). */
export const EFFECTIVE_WORDS: Record<ToolView['policy'], string> = {
  ask: 'Asks you',
  allow: 'Always allowed',
  deny: 'Always denied',
  trusted: 'Allowed (server trusted)',
  suspended: 'Asks again (changed)',
};

/**
 * What "no decision of its own" means for this tool right now: allowed when the server is trusted,
 * else ask (a trust the tool outgrew asks again).
 */
function defaultLabel(tool: ToolView, choice: ToolPolicyChoice): string {
  if (choice !== 'default') return 'Ask me (default)';
  if (tool.policy === 'trusted') return 'Allowed (server trusted)';
  if (tool.policy === 'suspended') return 'Ask me (changed since you trusted the server)';
  return 'Ask me (default)';
}

/** One tool: what it says it does, its schema, the model's standing decision, and the Run form with results. */
export function ToolDetail({
  tool,
  serverName,
  policyChoice,
  running,
  outcome,
  lastArgs,
  onRun,
  onCancel,
  onPolicy,
  loadPart,
}: ToolDetailProps) {
  const policyId = useId();
  const [addingRule, setAddingRule] = useState(false);
  const blockFlagged = useAppStore((s) => s.settings?.flaggedContent === 'block');
  const argNames = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
  return (
    <article className="tool-detail" aria-labelledby={`${policyId}-title`}>
      <h3 id={`${policyId}-title`}>{tool.name}</h3>
      {tool.title && <p className="tool-title">{tool.title}</p>}
      {tool.description ? <p className="tool-description">{tool.description}</p> : <p className="muted">No description.</p>}
      {tool.flags && tool.flags.length > 0 && (
        <ContentFlags
          flags={tool.flags}
          what="This tool’s description"
          decision={
            blockFlagged
              ? 'Flagged content is Block: this tool is not offered to the model.'
              : 'The model still gets it (as a description, not as your instructions).'
          }
        />
      )}
      <AnnotationHints hints={tool.annotations} />
      {(tool.app || tool.runsAsTask) && (
        <p className="hint">
          {tool.app &&
            (tool.app.visibility.includes('model')
              ? 'Has an app, shown beside its result. '
              : 'Has an app; for its app only — never offered to the model. ')}
          {tool.runsAsTask && 'Runs as a task: you can follow and cancel it in the Tasks tab.'}
        </p>
      )}
      <details className="tool-schema">
        <summary>Input schema</summary>
        <pre>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
      {tool.outputSchema && (
        <details className="tool-schema">
          <summary>Output schema</summary>
          <pre>{JSON.stringify(tool.outputSchema, null, 2)}</pre>
        </details>
      )}
      <div className="field tool-policy" data-state={tool.policy}>
        <label htmlFor={policyId}>When the model asks to run it</label>
        <Select
          id={policyId}
          value={policyChoice}
          aria-describedby={`${policyId}-note`}
          onChange={(next) => onPolicy(next as ToolPolicyChoice)}
          options={[
            { value: 'default', label: defaultLabel(tool, policyChoice) },
            { value: 'allow', label: 'Always allow' },
            { value: 'deny', label: 'Always deny' },
            { value: 'ask', label: 'Always ask, even if the server is trusted' },
          ]}
        />
        <p id={`${policyId}-note`} className="hint">
          {STATE_NOTES[tool.policy]}
        </p>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setAddingRule(true)}>
            Add rule
          </button>
        </div>
      </div>
      {addingRule && <AddRuleDialog open={addingRule} onOpenChange={setAddingRule} tool={tool.name} server={serverName} args={argNames} />}
      <h4>Run it yourself</h4>
      <p className="hint">Your click is your consent; the run is recorded in the audit trail.</p>
      <SchemaForm
        key={`${tool.name}:${tool.definitionHash}`}
        schema={tool.inputSchema}
        label={`Run ${tool.name}`}
        busy={running.some((call) => call.origin === 'user')}
        onRun={onRun}
      />
      {running.map((call) => (
        <RunningCall key={call.callId} call={call} onCancel={onCancel} />
      ))}
      {outcome && <ToolResultView key={outcome.callId} outcome={outcome} load={loadPart(outcome.callId)} />}
      {outcome && <TimelineButton key={`timeline-${outcome.callId}`} target={{ callId: outcome.callId }} />}
      {outcome?.appResult && tool.app && (
        <AppView
          key={`app-${outcome.callId}`}
          serverId={outcome.serverId}
          serverName={outcome.serverName}
          tool={outcome.tool}
          toolInput={lastArgs ?? {}}
          toolResult={outcome.appResult}
        />
      )}
    </article>
  );
}
