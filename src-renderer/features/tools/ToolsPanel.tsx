import { useCallback, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { JsonObject, ServerStatus, ToolCallOutcome, ToolView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import type { LoadPart } from './result/ResultBlocks';
import { EFFECTIVE_WORDS, ToolDetail, type ToolPolicyChoice } from './ToolDetail';
import { OfferNewToolsSwitch, ToolOfferSwitch, ToolPinToggle } from './ToolOfferControls';
import { hintedTools, TrustServerDialog } from './TrustServerDialog';
import './tools.css';
import { ToolList } from '../tool-list/ToolList';
import { Switch } from '../../ui/Switch';
import { panelState } from '../../ui/PanelState';
import { Alert } from '../../ui/Alert';

export interface ToolsPanelProps {
  serverId: string;
  serverName: string;
  status: ServerStatus;
  /** A new value whenever the host reports the server again (a restart, a changed catalog): the list is fetched again. */
  revision: unknown;
  /** The open tool and how to open another, when the caller keeps it (the server detail: it is part of the address). */
  selected?: string | null;
  onSelect?(name: string): void;
}

const newCallId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `00000000-0000-4000-8000-${Date.now().toString(16).padStart(12, '0').slice(-12)}`;

/** The Tools tab of a server: every tool by its name; selecting one opens its form, hints and results. */
export function ToolsPanel({ serverId, serverName, status, revision, ...choice }: ToolsPanelProps) {
  const api = useAppStore((s) => s.api);
  const running = useAppStore(useShallow((s) => Object.values(s.runningToolCalls).filter((call) => call.serverId === serverId)));
  const decisions = useAppStore((s) => s.standingDecisions);
  const listRevision = useAppStore((s) => s.toolsRevision[serverId] ?? 0);
  const [tools, setTools] = useState<ToolView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [ownChoice, setOwnChoice] = useState<string | null>(null);
  const selected = choice.onSelect ? (choice.selected ?? null) : ownChoice;
  const onSelect = choice.onSelect ?? setOwnChoice;
  const [outcomes, setOutcomes] = useState<Record<string, ToolCallOutcome>>({});
  /** The arguments of each tool's last run (its app is given them). */
  const [runArgs, setRunArgs] = useState<Record<string, JsonObject>>({});
  const [confirmingTrust, setConfirmingTrust] = useState(false);

  useEffect(() => {
    if (status !== 'ready') return;
    let current = true;
    api.listTools({ serverId }).then(
      (list) => current && (setTools(list), setError(null)),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, status, revision, listRevision, decisions]);

  const run = useCallback(
    async (tool: string, args: JsonObject) => {
      const outcome = await api.runTool({ serverId, tool, args, callId: newCallId() });
      setOutcomes((current) => ({ ...current, [tool]: outcome }));
      setRunArgs((current) => ({ ...current, [tool]: args }));
    },
    [api, serverId],
  );
  const loadPart = useCallback(
    (callId: string): LoadPart =>
      (part, offset, limit) =>
        api.getToolResultPart({ callId, part, offset, ...(limit ? { limit } : {}) }),
    [api],
  );

  const state = panelState({ what: 'tools', serverName, ready: status === 'ready', error, loaded: tools !== null });
  if (state || !tools) return state;
  if (tools.length === 0) return <p className="muted">{serverName} offers no tools.</p>;

  const trusted = decisions?.some((d) => d.kind === 'server' && d.serverId === serverId) ?? false;
  const hinted = hintedTools(tools);
  const setTrust = (next: boolean, confirmedTools?: string[]) =>
    api.setServerTrust({ serverId, trusted: next, ...(confirmedTools ? { confirmedTools } : {}) }).then(
      () => setActionError(null),
      (f: unknown) => {
        setActionError(messageOf(f));
        throw f;
      },
    );
  const tool = tools.find((candidate) => candidate.name === selected);
  const choiceOf = (name: string): ToolPolicyChoice => {
    const own = decisions?.find((d) => d.kind === 'tool' && d.serverId === serverId && d.tool === name);
    return own ? (own.decision as ToolPolicyChoice) : 'default';
  };

  return (
    <div className="tools-panel">
      <Switch
        className="tools-trust"
        checked={trusted}
        onChange={(on) => {
          // Tools that say they may do damage are named first; nothing is trusted until confirmed.
          if (on && hinted.length > 0) setConfirmingTrust(true);
          else void setTrust(on).catch(() => undefined);
        }}
      >
        Trust all tools of this server (the model may run them without asking, as they are now)
      </Switch>
      <OfferNewToolsSwitch serverId={serverId} serverName={serverName} />
      {confirmingTrust && (
        <TrustServerDialog
          serverName={serverName}
          hinted={hinted}
          onConfirm={(confirmedTools) => setTrust(true, confirmedTools).then(() => setConfirmingTrust(false))}
          onCancel={() => setConfirmingTrust(false)}
        />
      )}
      <Alert message={actionError} />
      <div className="tools-layout">
        <div className="tools-column">
          <ToolList
            groups={[{ id: serverId, name: serverName }]}
            tools={tools}
            grouped={false}
            control={(t) => <ToolOfferSwitch serverId={serverId} tool={t.name} />}
            after={(t) => (
              <span className="muted tool-list-policy" data-policy={t.policy}>
                {EFFECTIVE_WORDS[t.policy]}
                {running.some((call) => call.tool === t.name) && ' · running'}
              </span>
            )}
            onOpen={(t) => onSelect(t.name)}
            selected={selected}
          />
        </div>
        {tool ? (
          <div className="tool-detail-column">
            <ToolPinToggle serverId={serverId} tool={tool.name} />
            <ToolDetail
              tool={tool}
              serverName={serverName}
              policyChoice={choiceOf(tool.name)}
              running={running.filter((call) => call.tool === tool.name)}
              outcome={outcomes[tool.name]}
              lastArgs={runArgs[tool.name]}
              onRun={(args) => run(tool.name, args)}
              onCancel={(callId) => api.cancelToolCall({ callId })}
              onPolicy={(policy) =>
                void api.setToolPolicy({ serverId, tool: tool.name, policy }).then(
                  () => setActionError(null),
                  (f: unknown) => setActionError(messageOf(f)),
                )
              }
              loadPart={loadPart}
            />
          </div>
        ) : (
          <p className="muted tools-pick">Choose a tool to see what it does and run it.</p>
        )}
      </div>
    </div>
  );
}
