import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { describeUnavailable, type ToolSetView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { ToolSetEditor } from './ToolSetEditor';
import { membersSummary } from './set-summary';
import './tool-sets.css';
import { Select } from '../../ui/Select';
import { HelpTip } from '../../ui/HelpTip';
import { Alert } from '../../ui/Alert';

/** Settings › Tool sets: create, rename, edit members, delete, and the default for new conversations. */
export function ToolSetsSettings() {
  const api = useAppStore((s) => s.api);
  const sets = useAppStore((s) => s.toolOffers.sets);
  const tools = useAppStore((s) => s.toolOffers.tools);
  const defaultId = useAppStore((s) => s.settings?.defaultToolSetId ?? '');
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]).filter(Boolean)));
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const defaultFieldId = useId();
  const report = (promise: Promise<unknown>) =>
    promise.then(
      () => setError(null),
      (failure: unknown) => setError(messageOf(failure)),
    );
  const serverRefs = servers.map((s) => ({ id: s.config.id, name: s.config.name }));
  const editor = (set?: ToolSetView) => (
    <ToolSetEditor
      set={set}
      servers={serverRefs}
      tools={tools}
      onCancel={() => setEditing(null)}
      onSave={(name, members) => api.saveToolSet({ ...(set ? { id: set.id } : {}), name, members }).then(() => setEditing(null))}
    />
  );

  return (
    <section className="card tool-sets-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>Tool sets</h2>
      <p className="hint">
        Named sets of servers and tools a conversation can offer.
        <HelpTip about="Tool sets">
          A conversation that uses a set offers the model only the set&apos;s tools (those you offer to the model).
        </HelpTip>
      </p>
      <div className="field">
        <label htmlFor={defaultFieldId}>Tool set for new conversations</label>
        <Select
          id={defaultFieldId}
          value={defaultId}
          onChange={(next) => void report(api.updateSettings({ defaultToolSetId: next }))}
          options={[{ value: '', label: 'All offered tools' }, ...sets.map((set) => ({ value: set.id, label: set.name }))]}
        />
      </div>
      <Alert message={error} />
      {sets.length === 0 && editing === null && <p className="muted">No tool sets yet.</p>}
      <ul className="tool-set-list" aria-label="Tool sets">
        {sets.map((set) => (
          <li key={set.id}>
            {editing === set.id ? (
              editor(set)
            ) : (
              <>
                <strong>{set.name}</strong> <span className="muted">{membersSummary(set)}</span>
                {set.unavailable.length > 0 && <p className="warning">{describeUnavailable(set.unavailable)}</p>}
                <div className="actions">
                  <button type="button" className="secondary" aria-label={`Edit ${set.name}`} onClick={() => setEditing(set.id)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Delete ${set.name}`}
                    onClick={() => void report(api.deleteToolSet({ id: set.id }))}
                  >
                    Delete
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        editor()
      ) : (
        <button type="button" onClick={() => setEditing('new')}>
          New tool set
        </button>
      )}
    </section>
  );
}
