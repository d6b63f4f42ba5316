import { useMemo, useState } from 'react';
import type { ServerView, ToolOfferView, ToolSetMemberIds, ToolSetView } from '@contract';
import { LabelledSwitch } from '../../ui/LabelledSwitch';
import { SaveToolSetDialog } from './SaveToolSetDialog';
import { offeredCount, selectionAsMembers, toolsForModel } from './tool-selection';
import './tool-picker.css';
import { ToolList } from '../tool-list/ToolList';
import { toolListItem } from '../tool-list/tool-list-rows';

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
  const groups = useMemo(() => servers.map((s) => ({ id: s.config.id, name: s.config.name })), [servers]);
  const items = useMemo(() => tools.map((t) => ({ ...toolListItem(t), offer: t })), [tools]);
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
            <ToolList
              groups={groups}
              tools={items}
              groupControl={(g) => (
                <LabelledSwitch
                  label={`Use ${g.name} in this conversation`}
                  checked={isOn(g.id)}
                  disabled={disabled}
                  onChange={(on) => toggle(g.id, on)}
                />
              )}
              groupNote={(g) => {
                const status = servers.find((s) => s.config.id === g.id)?.runtime.status;
                return status && status !== 'ready' ? `${status}: its tools come once it is Ready` : null;
              }}
              control={(t) => (
                <LabelledSwitch
                  label={`Offer ${t.name} to the model`}
                  checked={t.offer.offered}
                  disabled={disabled}
                  onChange={(on) => onOffer(t.serverId, t.name, on)}
                />
              )}
              height={360}
            />
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
