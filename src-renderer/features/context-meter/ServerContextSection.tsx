import { useEffect, useState } from 'react';
import './context-meter.css';
import { formatTokens, type ServerContextView, type ServerRuntime } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { Switch } from '../../ui/Switch';
import { ContentFlags } from '../../ui/ContentFlags';
import { Alert } from '../../ui/Alert';

export interface ServerContextSectionProps {
  serverId: string;
  serverName: string;
  /** Asked again when this changes (the server restarted, its tools changed). */
  runtime: ServerRuntime;
}

/**
 * A server's Overview: what it adds to every chat request that offers its tools — the tools' token
 * cost, and the instructions it gave, with the switch that lets them go into the system prompt.
 */
export function ServerContextSection({ serverId, serverName, runtime }: ServerContextSectionProps) {
  const api = useAppStore((s) => s.api);
  const [view, setView] = useState<ServerContextView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Of a new conversation's request (every Ready server): this server's tools sent and kept back by tool search. */
  const [inRequest, setInRequest] = useState<{ sent: number; held: number } | null>(null);
  const toolSearch = useAppStore((s) => s.settings?.toolSearch);
  const calls = useTrackedCalls<'send'>();
  const revision = `${runtime.status}:${runtime.since}:${runtime.counts?.tools ?? 0}`;

  useEffect(() => {
    let current = true;
    api
      .getServerContext({ serverId })
      .then((next) => {
        if (!current) return;
        setView(next);
        setFailure(null);
      })
      .catch((error: unknown) => current && setFailure(messageOf(error)));
    api.measureContext({}).then(
      (measure) => {
        if (!current) return;
        const sent = measure.servers.find((s) => s.serverId === serverId)?.tools ?? 0;
        const held = measure.heldBack?.servers.find((s) => s.serverId === serverId)?.tools ?? 0;
        setInRequest({ sent, held });
      },
      () => current && setInRequest(null),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, revision, toolSearch]);

  return (
    <section className="server-context" aria-labelledby="server-context-title">
      <h3 id="server-context-title">Model context</h3>
      {failure && (
        <p className="field-error">
          Could not count {serverName}’s tools: {failure}
        </p>
      )}
      {view && (
        <>
          <p>
            Tools: {view.tools}, ≈ {formatTokens(view.toolTokens)} tokens
            {inRequest && inRequest.held > 0 ? (
              <span className="muted">
                {' '}
                if all were sent. Tool search keeps back {inRequest.held} of them: a new conversation’s request carries{' '}
                {inRequest.sent === 0 ? 'none' : inRequest.sent} until the model finds them with a search.
              </span>
            ) : (
              <span className="muted"> (in every chat request that offers {serverName}’s tools)</span>
            )}
          </p>
          <h4>Instructions</h4>
          {view.instructions === undefined ? (
            <p className="muted">
              {runtime.status === 'ready' ? `${serverName} gave no instructions.` : `Shown once ${serverName} is Ready.`}
            </p>
          ) : (
            <>
              {/* A region of its own: long instructions scroll, and the keyboard reaches them. */}
              <pre className="server-instructions" role="region" tabIndex={0} aria-label={`Instructions from ${serverName}`}>
                {view.instructions}
              </pre>
              {view.instructionFlags && view.instructionFlags.length > 0 && (
                <ContentFlags flags={view.instructionFlags} what="These instructions" />
              )}
              {view.instructions.trim().length > view.instructionsLimit && (
                <p className="hint">
                  {view.instructions.trim().length.toLocaleString('en-US')} characters: the model gets the first{' '}
                  {view.instructionsLimit.toLocaleString('en-US')}, and is told they were cut.
                </p>
              )}
            </>
          )}
          <Switch
            title="Put these instructions, marked as this server’s, into the system prompt of chats that offer its tools. Off for a server you add: read them first."
            checked={view.sendInstructions}
            disabled={calls.isPending('send')}
            onChange={(send) => void calls.run('send', async () => setView(await api.setServerInstructions({ serverId, send })))}
          >
            Send instructions to the model
          </Switch>
          <Alert message={calls.failure?.message} prefix="Not changed:" tone="field-error" />
        </>
      )}
    </section>
  );
}
