import type { ServerView } from '../../../src-preload/contract';

export interface ServerTogglesProps {
  servers: ServerView[];
  /** null: every Ready server (the default); else exactly these. */
  selected: string[] | null;
  onChange(serverIds: string[] | null): void;
  disabled?: boolean;
}

/** Which servers' tools this conversation offers the model. */
export function ServerToggles({ servers, selected, onChange, disabled }: ServerTogglesProps) {
  const ready = servers.filter((s) => s.runtime.status === 'ready');
  const isOn = (id: string) => (selected === null ? true : selected.includes(id));
  const offered = selected === null ? ready.length : ready.filter((s) => selected.includes(s.config.id)).length;
  const toggle = (id: string, on: boolean) => {
    const current = selected ?? servers.map((s) => s.config.id);
    onChange(on ? [...current, id] : current.filter((x) => x !== id));
  };
  return (
    <details className="server-toggles">
      <summary>
        Tools: {selected === null ? 'all Ready servers' : 'chosen servers'} ({offered} offered)
      </summary>
      {servers.length === 0 ? (
        <p className="muted">No servers yet: add one on the Servers page to give Claude tools.</p>
      ) : (
        <fieldset disabled={disabled}>
          <legend className="visually-hidden">Servers whose tools this conversation offers</legend>
          {servers.map((s) => (
            <label key={s.config.id} className="switch server-toggle">
              <input type="checkbox" checked={isOn(s.config.id)} onChange={(e) => toggle(s.config.id, e.target.checked)} />
              {s.config.name}
              {s.runtime.status !== 'ready' && <span className="muted"> ({s.runtime.status}: its tools come once it is Ready)</span>}
            </label>
          ))}
          {selected !== null && (
            <button type="button" className="link" onClick={() => onChange(null)}>
              Use all Ready servers
            </button>
          )}
        </fieldset>
      )}
    </details>
  );
}
