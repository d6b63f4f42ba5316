import type { ReactNode } from 'react';
import type { ServerView } from '@contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { PRESET_LABELS, STATUS_LABELS } from '../servers/server-status';
import { Alert } from '../../ui/Alert';

export interface FirstRunProps {
  servers: readonly ServerView[];
  /** The conversation's provider needs a key and has none: what to do about it (the chat's one key prompt). */
  keyPrompt?: ReactNode;
  /** Adds the Everything demo server (it starts by itself). */
  onQuickAdd(): Promise<unknown>;
  onOpenServers(): void;
}

/**
 * Where a conversation has nothing yet: what the model can use, and — until there is a Ready server
 * and a key — the steps from nothing to a first answer, each with the one click that does it.
 */
export function FirstRun({ servers, keyPrompt, onQuickAdd, onOpenServers }: FirstRunProps) {
  const needsKey = keyPrompt !== undefined;
  const calls = useTrackedCalls<'add'>();
  const adding = calls.isPending('add');
  const failure = calls.failure?.message;
  const ready = servers.filter((s) => s.runtime.status === 'ready');
  const demo = servers.find((s) => s.config.preset === 'everything');

  if (ready.length > 0 && !needsKey) {
    return (
      <div className="message-list-empty muted">
        Ask anything; the model can use the tools of {ready.length === 1 ? ready[0].config.name : `your ${ready.length} Ready servers`}.
      </div>
    );
  }

  return (
    // The steps sit in a card of their own size at the top; the space below stays plain (no empty box).
    <section className="first-run" aria-labelledby="first-run-title">
      <div className="first-run-card">
        <h3 id="first-run-title">Get started</h3>
        <ol>
          <li data-done={ready.length > 0 || undefined}>
            <p className="first-run-step">Add an MCP server: its tools are what the model can use.</p>
            {ready.length > 0 ? (
              <p className="muted">Done: {ready.map((s) => s.config.name).join(', ')} Ready.</p>
            ) : servers.length === 0 ? (
              <p className="muted">
                No servers yet. The Everything demo server shows what MCP servers offer; add your own on the Servers page.
              </p>
            ) : (
              <p className="muted">
                None of your servers is Ready yet ({servers.map((s) => `${s.config.name}: ${STATUS_LABELS[s.runtime.status]}`).join(', ')}).
              </p>
            )}
            {ready.length === 0 && (
              <div className="actions">
                {!demo && (
                  <button type="button" className="primary" disabled={adding} onClick={() => void calls.run('add', onQuickAdd)}>
                    {adding ? 'Adding…' : `Add ${PRESET_LABELS.everything}`}
                  </button>
                )}
                <button type="button" onClick={onOpenServers}>
                  Open Servers
                </button>
              </div>
            )}
            <Alert message={failure} prefix={`Could not add ${PRESET_LABELS.everything}:`} tone="field-error" />
          </li>
          <li data-done={!needsKey || undefined}>
            <p className="first-run-step">Give the model a key.</p>
            {keyPrompt ?? <p className="muted">Done: the model is set up.</p>}
          </li>
          <li>
            <p className="first-run-step">Ask something in the message box below — for example “What tools do you have?”</p>
          </li>
        </ol>
      </div>
    </section>
  );
}
