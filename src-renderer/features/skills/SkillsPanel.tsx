import { useState } from 'react';
import type { ServerStatus } from '@contract';
import { SkillDetail } from './SkillDetail';
import { SkillList, sourceGroup } from './SkillList';
import { useSkills } from './use-skills';
import { panelState } from '../../ui/PanelState';

export interface SkillsPanelProps {
  serverId: string;
  serverName: string;
  status: ServerStatus;
  /** A new value whenever the host reports the server again (a restart): the list is asked again. */
  revision: unknown;
}

/**
 * A server's Skills tab: the skills it offers (the MCP skills extension), each with its switch and
 * what loading it costs, or — for a server that does not offer skills — a plain sentence saying so.
 */
export function SkillsPanel({ serverId, serverName, status, revision }: SkillsPanelProps) {
  const { list, error, setEnabled } = useSkills(serverId, revision);
  const [selected, setSelected] = useState<string | null>(null);

  const state = panelState({ what: 'skills', serverName, ready: status === 'ready', error, loaded: list !== null });
  if (state || !list) return state;
  const listing = list.servers.find((s) => s.serverId === serverId);
  if (!listing) return <p className="muted">{serverName} does not offer skills (it does not declare the MCP skills extension).</p>;
  if (listing.state === 'error')
    return panelState({ what: 'skills', serverName, ready: true, error: listing.message ?? 'the server refused skills/list' });
  const skills = list.skills.filter((s) => s.source.kind === 'server' && s.source.serverId === serverId);
  if (skills.length === 0)
    return (
      <p className="muted">{listing.state === 'listing' ? `Listing the skills of ${serverName}…` : `${serverName} offers no skills.`}</p>
    );
  const skill = skills.find((s) => s.key === selected);

  return (
    <div className="skills-panel">
      <p className="hint">
        The model sees the name and description of each skill that is on, and loads one only when it needs it: {serverName} is asked for a
        skill’s files then, and each is checked against the digest and size {serverName} listed (a skill whose files the server generates
        has no such list: its folders are listed when it is loaded, and only its frontmatter and the sizes given are checked).
      </p>
      {listing.truncated && (
        <p className="warning">
          {serverName} lists more skills than Patchbay keeps ({listing.count.toLocaleString('en-US')} shown): the rest are left out.
        </p>
      )}
      <div className="tools-layout skills-layout">
        <div className="tools-column">
          <SkillList
            skills={skills}
            groups={[sourceGroup({ kind: 'server', serverId, serverName })]}
            grouped={false}
            setEnabled={setEnabled}
            onOpen={(s) => setSelected(s.key)}
            selected={selected}
          />
        </div>
        {skill ? <SkillDetail key={skill.key} skill={skill} /> : <p className="muted">Choose a skill to see what it holds.</p>}
      </div>
    </div>
  );
}
