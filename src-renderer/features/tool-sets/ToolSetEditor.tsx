import { useMemo, useState } from 'react';
import { describeUnavailable, isAddedLater, type ToolOfferView, type ToolSetMemberIds, type ToolSetView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { LabelledSwitch } from '../../ui/LabelledSwitch';
import { ToolList } from '../tool-list/ToolList';
import { toolListItem } from '../tool-list/tool-list-rows';
import { Alert } from '../../ui/Alert';

export interface ToolSetEditorProps {
  /** The set being edited; absent: a new one. */
  set?: ToolSetView;
  /** Configured servers, by id and name. */
  servers: readonly { id: string; name: string }[];
  /** Every tool of every Ready server. */
  tools: readonly ToolOfferView[];
  onSave(name: string, members: ToolSetMemberIds): Promise<unknown>;
  onCancel(): void;
}

const key = (serverId: string, tool: string) => JSON.stringify([serverId, tool]);

/**
 * A tool set's name and members: whole servers, or single tools of Ready servers; and whether the
 * servers added after it is saved join it.
 */
export function ToolSetEditor({ set, servers, tools, onSave, onCancel }: ToolSetEditorProps) {
  const [name, setName] = useState(set?.name ?? '');
  // A server that joined as "added later" shows as a whole member: saving keeps it in (it is known from then on).
  const [wholeServers, setWholeServers] = useState(
    () =>
      new Set([
        ...(set?.members.servers.map((s) => s.id) ?? []),
        ...(set ? servers.filter((s) => isAddedLater(set.members, s.id)).map((s) => s.id) : []),
      ]),
  );
  const [addedLater, setAddedLater] = useState(set?.members.addedLater !== undefined);
  const [chosenTools, setChosenTools] = useState(() => new Set(set?.members.tools.map((t) => key(t.serverId, t.tool))));
  const [error, setError] = useState<string | null>(null);
  const items = useMemo(() => tools.map((t) => ({ ...toolListItem(t), offered: t.offered })), [tools]);
  const flip = <T,>(current: Set<T>, value: T, on: boolean) => {
    const next = new Set(current);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };
  const save = () => {
    if (!name.trim()) return setError('A tool set needs a name.');
    const known = new Set(servers.map((s) => s.id));
    const members: ToolSetMemberIds = {
      servers: [...wholeServers].filter((id) => known.has(id)),
      tools: tools
        .filter((t) => chosenTools.has(key(t.serverId, t.tool)) && !wholeServers.has(t.serverId))
        .map((t) => ({ serverId: t.serverId, tool: t.tool })),
      ...(addedLater ? { addedLater: true } : {}),
    };
    onSave(name.trim(), members).catch((failure: unknown) => setError(messageOf(failure)));
  };
  return (
    <form
      className="tool-set-editor"
      aria-label={set ? `Edit tool set ${set.name}` : 'New tool set'}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {/* A field of its own: the label above the box, not glued to it ("Tool set name[…]"). */}
      <Field label="Tool set name">
        {(control) => <input {...control} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
      </Field>
      {set && set.unavailable.length > 0 && <p className="warning">{describeUnavailable(set.unavailable)} Saving drops them.</p>}
      <fieldset>
        <legend>Members</legend>
        <ToolList
          groups={servers}
          tools={items}
          groupControl={(g) => (
            <LabelledSwitch
              label={`All tools of ${g.name}`}
              checked={wholeServers.has(g.id)}
              onChange={(on) => setWholeServers((c) => flip(c, g.id, on))}
            />
          )}
          groupNote={(g) => (wholeServers.has(g.id) ? 'all its tools, and those it adds later' : null)}
          control={(t) => {
            const whole = wholeServers.has(t.serverId);
            return (
              <LabelledSwitch
                label={`Include ${t.name}`}
                disabled={whole}
                checked={whole || chosenTools.has(key(t.serverId, t.name))}
                onChange={(on) => setChosenTools((c) => flip(c, key(t.serverId, t.name), on))}
              />
            );
          }}
          after={(t) => (t.offered ? null : <span className="muted">(not offered to the model)</span>)}
          height={360}
        />
        <LabelledSwitch label="Include servers added later" checked={addedLater} onChange={setAddedLater}>
          Include servers added later
        </LabelledSwitch>
        <p className="hint">
          {addedLater
            ? 'Every tool of a server you add after saving joins this set.'
            : 'Servers you add after saving stay out of this set until you add them here.'}
        </p>
      </fieldset>
      <Alert message={error} prefix="Could not save the tool set:" />
      <div className="actions">
        <button type="submit" className="primary">
          Save tool set
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
