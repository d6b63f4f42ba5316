import { useState } from 'react';
import type { ServerView, ToolOfferView, ToolSetMemberIds, ToolSetView } from '@contract';
import { LabelledSwitch } from '../../ui/LabelledSwitch';
import { SaveToolSetDialog } from './SaveToolSetDialog';
import { offeredCount, selectionAsMembers, toolsForModel } from './tool-selection';
import './tool-picker.css';
import { Switch } from '../../ui/Switch';

export interface ServerTogglesProps {
  servers: ServerView[];
  /** null: every Ready server (the default); else exactly these. */
  selected: string[] | null;
  onChange(serverIds: string[] | null): void;
  /** Every tool of every Ready server with the user's choices (the host's snapshot). */
  tools: readonly ToolOfferView[];
  /** The conversation's tool set, when it has one. */
  set?: ToolSetView;
  onOffer(serverId: string, tool: string, offered: boolean): void;
  /** Saves the current selection as a new tool set. */
  onSaveSet(name: string, members: ToolSetMemberIds): Promise<unknown>;
  disabled?: boolean;
}

/** The chat's tool picker: which servers' tools this conversation offers, each tool's switch, and "Save as tool set…". */
export function ServerToggles({ servers, selected, onChange, tools, set, onOffer, onSaveSet, disabled }: ServerTogglesProps) {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const isOn = (id: string) => (selected === null ? true : selected.includes(id));
  const forModel = toolsForModel(tools, selected, set);
  const toggle = (id: string, on: boolean) => {
    const current = selected ?? servers.map((s) => s.config.id);
    onChange(on ? [...current, id] : current.filter((x) => x !== id));
  };
  return (
    <details className="server-toggles" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Tools: {offeredCount(forModel.length, tools.length)} offered{set ? ` (set ${set.name})` : ''}
      </summary>
      {servers.length === 0 ? (
        <p className="muted">No servers yet: add one on the Servers page to give the model tools.</p>
      ) : (
        open && (
          <fieldset disabled={disabled}>
            <legend className="visually-hidden">Servers and tools this conversation offers</legend>
            {servers.map((s) => (
              <div key={s.config.id} className="server-toggle-group">
                <Switch
                  className="server-toggle"
                  checked={isOn(s.config.id)}
                  disabled={disabled}
                  onChange={(on) => toggle(s.config.id, on)}
                >
                  {s.config.name}
                  {s.runtime.status !== 'ready' && <span className="muted"> ({s.runtime.status}: its tools come once it is Ready)</span>}
                </Switch>
                <ul className="tool-toggles" aria-label={`Tools of ${s.config.name}`}>
                  {tools
                    .filter((t) => t.serverId === s.config.id)
                    .map((t) => (
                      <li key={t.tool}>
                        <LabelledSwitch
                          label={`Offer ${t.tool} to the model`}
                          checked={t.offered}
                          onChange={(on) => onOffer(t.serverId, t.tool, on)}
                        >
                          {t.tool}
                        </LabelledSwitch>
                      </li>
                    ))}
                </ul>
              </div>
            ))}
            <div className="server-toggles-actions">
              {selected !== null && (
                <button type="button" className="link" onClick={() => onChange(null)}>
                  Use all Ready servers
                </button>
              )}
              <button type="button" className="link" disabled={forModel.length === 0} onClick={() => setSaving(true)}>
                Save as tool set…
              </button>
            </div>
          </fieldset>
        )
      )}
      <SaveToolSetDialog
        open={saving}
        toolCount={forModel.length}
        onCancel={() => setSaving(false)}
        onSave={(name) => onSaveSet(name, selectionAsMembers(forModel, tools)).then(() => setSaving(false))}
      />
    </details>
  );
}
