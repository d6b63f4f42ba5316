import { useEffect, useState } from 'react';
import type { PromptList, PromptResultView, ServerRuntime } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { PromptForm } from './PromptForm';
import { PromptMessages } from './PromptMessages';
import '../resources/resources.css';
import { panelState } from '../../ui/PanelState';
import { Alert } from '../../ui/Alert';

export interface PromptsPanelProps {
  serverId: string;
  serverName: string;
  runtime: ServerRuntime;
}

/**
 * The Prompts tab of a server: every prompt by its name with its description and arguments; `Get
 * prompt` shows the messages it produces (text, images, embedded resources) before anything is used.
 */
export function PromptsPanel({ serverId, serverName, runtime }: PromptsPanelProps) {
  const api = useAppStore((s) => s.api);
  const revision = useAppStore((s) => s.contentRevision[serverId] ?? 0);
  const [list, setList] = useState<PromptList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [results, setResults] = useState<Record<string, PromptResultView>>({});
  const ready = runtime.status === 'ready';
  const capabilities = runtime.capabilities ?? [];
  const offersPrompts = capabilities.includes('prompts');

  useEffect(() => {
    if (!ready || !offersPrompts) return;
    let current = true;
    api.listPrompts({ serverIds: [serverId] }).then(
      (prompts) => current && (setList(prompts), setError(null)),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, ready, offersPrompts, revision, runtime.since]);

  const offersNone = offersPrompts ? undefined : `${serverName} offers no prompts.`;
  const state = panelState({ what: 'prompts', serverName, ready, offersNone, error, loaded: list !== null });
  if (state || !list) return state;
  const prompt = list.prompts.find((p) => p.name === selected);
  const result = prompt ? results[prompt.name] : undefined;

  return (
    <div className="prompts-panel">
      {list.notes.map((note) => (
        <Alert key={note} message={note} />
      ))}
      {list.prompts.length === 0 ? (
        <p className="muted">{serverName} lists no prompts.</p>
      ) : (
        <div className="tools-layout">
          <ul className="tool-list" aria-label={`Prompts of ${serverName}`}>
            {list.prompts.map((p) => (
              <li key={p.name}>
                <button
                  type="button"
                  className="tool-name"
                  aria-current={p.name === selected ? 'true' : undefined}
                  onClick={() => setSelected(p.name)}
                >
                  {p.name}
                </button>
                {p.title && <span className="muted tool-list-title">{p.title}</span>}
              </li>
            ))}
          </ul>
          {prompt ? (
            <article className="resource-detail" aria-labelledby="prompt-detail-name">
              <h3 id="prompt-detail-name">{prompt.name}</h3>
              {prompt.title && <p className="tool-title">{prompt.title}</p>}
              {prompt.description ? <p>{prompt.description}</p> : <p className="muted">No description.</p>}
              <PromptForm
                key={prompt.name}
                prompt={prompt}
                completions={capabilities.includes('completions')}
                onGet={async (args) => {
                  const got = await api.getPrompt({ serverId, name: prompt.name, arguments: args, purpose: 'preview' });
                  setResults((current) => ({ ...current, [prompt.name]: got }));
                  return got;
                }}
              />
              {result && (
                <section aria-label={`Result of ${prompt.name}`}>
                  <h4>Messages</h4>
                  {result.description && <p className="muted">{result.description}</p>}
                  <PromptMessages serverId={serverId} messages={result.messages} />
                </section>
              )}
            </article>
          ) : (
            <p className="muted tools-pick">Choose a prompt to fill in its arguments and see its messages.</p>
          )}
        </div>
      )}
    </div>
  );
}
