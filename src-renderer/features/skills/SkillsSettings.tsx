import { useCallback, useContext, useId, useState } from 'react';
import { FolderOpen, Sparkles } from 'lucide-react';
import type { SkillList as SkillListView } from '@contract';
import { AppStoreContext, useAppStore } from '../../stores/use-app-store';
import { EmptyState } from '../../ui/EmptyState';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { AddFolderDialog } from '../roots/AddFolderDialog';
import { SkillDetail } from './SkillDetail';
import { SkillList, sourceGroup } from './SkillList';
import { useSkills } from './use-skills';
import { Alert } from '../../ui/Alert';

/**
 * Settings › Skills: the local skills folder (chosen like a root: the native picker in the desktop
 * app, a path and a folder browser in web mode), then every skill of every source — the folder and
 * each server that offers skills — grouped by source, each with its switch and what loading it costs.
 */
export function SkillsSettings() {
  const api = useAppStore((s) => s.api);
  const mode = useAppStore((s) => s.info?.mode);
  const folder = useAppStore((s) => s.settings?.skillsFolder ?? '');
  const { list, error, setEnabled } = useSkills(undefined, folder);
  const [choosing, setChoosing] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const calls = useTrackedCalls<'pick' | 'clear'>();
  const titleId = useId();
  const listFolders = useCallback((path: string) => api.listFolders({ path }), [api]);
  const store = useContext(AppStoreContext);
  // What the host saved is shown at once, without waiting for its event (as the Preferences form does).
  const saveFolder = (path: string) => api.updateSettings({ skillsFolder: path }).then((saved) => store?.setState({ settings: saved }));

  const choose = () => {
    if (mode !== 'electron') return setChoosing(true);
    void calls.run('pick', async () => {
      const { path } = await api.pickFolder();
      if (path) await saveFolder(path);
    });
  };
  const skill = list?.skills.find((s) => s.key === selected);

  return (
    <section className="card skills-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>Skills</h2>
      <p className="hint">
        Instructions the model loads when it needs them: it sees each skill’s name and description, and loads a skill’s body with a tool. A
        skill never runs anything by itself.
      </p>
      <h3>Skills folder</h3>
      <p>
        {folder ? <code>{folder}</code> : <span className="muted">No folder chosen.</span>}{' '}
        <span className="muted">Each of its subfolders with a SKILL.md is a skill.</span>
      </p>
      <div className="actions">
        <button type="button" className="secondary" onClick={choose} disabled={calls.isPending('pick')}>
          {folder ? 'Change folder' : 'Choose folder'}
        </button>
        {folder && (
          <button
            type="button"
            className="secondary"
            disabled={calls.isPending('clear')}
            onClick={() => void calls.run('clear', () => saveFolder(''))}
          >
            Stop using this folder
          </button>
        )}
      </div>
      <Alert message={calls.failure?.message} prefix="Could not change the skills folder:" />
      {!list && !error && <p className="muted">Loading skills…</p>}
      {list && <FolderState list={list} />}
      <Alert message={error} prefix="Could not list the skills:" />
      {list && <ServerProblems list={list} />}
      {list &&
        (list.skills.length === 0 ? (
          <EmptyState icon={list.local.folder ? FolderOpen : Sparkles}>
            {list.local.folder
              ? 'No skills yet: the folder has no subfolder with a SKILL.md, and no Ready server offers skills.'
              : 'No skills yet: choose a skills folder, or add a server that offers skills.'}
          </EmptyState>
        ) : (
          <div className="skills-settings-list">
            <SkillList
              skills={list.skills}
              groups={[
                ...(list.skills.some((s) => s.source.kind === 'local') ? [sourceGroup({ kind: 'local', folder })] : []),
                ...list.servers.map((s) => sourceGroup({ kind: 'server', serverId: s.serverId, serverName: s.serverName })),
              ]}
              grouped
              setEnabled={setEnabled}
              onOpen={(s) => setSelected(s.key)}
              selected={selected}
            />
            {skill && <SkillDetail key={skill.key} skill={skill} />}
          </div>
        ))}
      {choosing && (
        <AddFolderDialog
          open
          onOpenChange={setChoosing}
          listFolders={listFolders}
          onAdd={saveFolder}
          title="Choose skills folder"
          description="A folder on the computer running Patchbay whose subfolders hold a SKILL.md each."
          submitLabel="Use this folder"
          initialPath={folder}
        />
      )}
    </section>
  );
}

/** The local folder's state in words, when it is not simply fine. */
function FolderState({ list }: { list: SkillListView }) {
  const { local } = list;
  if (local.state === 'missing' || local.state === 'unreadable')
    return (
      <Alert
        message={
          local.message ??
          (local.state === 'missing'
            ? `The skills folder ${local.folder} no longer exists.`
            : `The skills folder ${local.folder} cannot be read.`)
        }
      />
    );
  return null;
}

/** Servers whose listing failed or is still coming, in words naming them. */
function ServerProblems({ list }: { list: SkillListView }) {
  const notes = list.servers.filter((s) => s.state !== 'ok' || s.truncated);
  if (notes.length === 0) return null;
  return (
    <ul className="skills-server-notes" aria-label="Skill listings">
      {notes.map((s) => (
        <li key={s.serverId} className={s.state === 'error' || s.truncated ? 'warning' : 'muted'}>
          {s.state === 'error'
            ? `Could not list the skills of ${s.serverName}: ${s.message ?? 'skills/list failed'}`
            : s.state === 'listing'
              ? `Listing the skills of ${s.serverName}…`
              : `${s.serverName} lists more skills than Patchbay keeps (${s.count.toLocaleString('en-US')} shown): the rest are left out.`}
        </li>
      ))}
    </ul>
  );
}
