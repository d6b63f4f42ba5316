import { useMemo, useState } from 'react';
import type { SkillInfo, SkillSource } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { LabelledSwitch } from '../../ui/LabelledSwitch';
import { ToolList, type ListNoun } from '../tool-list/ToolList';
import type { ToolListGroup, ToolListItem } from '../tool-list/tool-list-rows';
import { skillCostText } from './use-skills';
import './skills.css';
import { Alert } from '../../ui/Alert';

const SKILLS: ListNoun = { one: 'skill', many: 'skills', Many: 'Skills' };

/** A skill as a row of the shared list: grouped by its source, told apart by its key. */
interface SkillRow extends ToolListItem {
  skill: SkillInfo;
}

/** The group a skill's source makes (the local folder, or one server). */
export function sourceGroup(source: SkillSource): ToolListGroup {
  return source.kind === 'local' ? { id: 'local', name: 'Local folder' } : { id: `server:${source.serverId}`, name: source.serverName };
}

export interface SkillListProps {
  skills: readonly SkillInfo[];
  /** The sources in the order shown (Settings › Skills: the local folder, then each server). */
  groups: readonly ToolListGroup[];
  /** Headings per source (Settings); a server's tab lists one source without them. */
  grouped: boolean;
  setEnabled(key: string, enabled: boolean): Promise<void>;
  onOpen(skill: SkillInfo): void;
  selected: string | null;
}

/**
 * Skills in the shared virtualised list (a server may list thousands): each with its switch
 * (`Offer <name> to the model`), its name (opens it), its description, and what loading it costs —
 * or, for a refused skill, why, in words (its switch off and disabled: it is never offered).
 */
export function SkillList({ skills, groups, grouped, setEnabled, onOpen, selected }: SkillListProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const rows = useMemo<SkillRow[]>(() => skills.map((skill) => skillRow(skill)), [skills]);
  // Names need not be unique in one source (the extension says so): repeated ones show their URI.
  const repeated = useMemo(() => {
    const seen = new Map<string, number>();
    for (const row of rows) seen.set(`${row.serverId}\n${row.name}`, (seen.get(`${row.serverId}\n${row.name}`) ?? 0) + 1);
    return new Set([...seen].filter(([, n]) => n > 1).map(([k]) => k));
  }, [rows]);
  const toggle = (skill: SkillInfo, enabled: boolean) =>
    void setEnabled(skill.key, enabled).then(
      () => setFailure(null),
      (error: unknown) => setFailure(`Could not switch ${skill.name}: ${messageOf(error)}`),
    );

  return (
    <div className="skill-list">
      <Alert message={failure} />
      <ToolList
        noun={SKILLS}
        groups={groups}
        tools={rows}
        grouped={grouped}
        control={(row) => (
          <LabelledSwitch
            label={`Offer ${row.name} to the model`}
            checked={row.skill.enabled && !row.skill.problem}
            disabled={row.skill.problem !== undefined}
            onChange={(on) => toggle(row.skill, on)}
          />
        )}
        after={(row) => (
          <>
            {repeated.has(`${row.serverId}\n${row.name}`) && <code className="skill-uri muted">{row.skill.uri}</code>}
            <span className={row.skill.problem ? 'skill-cost skill-refused' : 'skill-cost muted'} title={skillCostText(row.skill)}>
              {skillCostText(row.skill)}
            </span>
          </>
        )}
        onOpen={(row) => onOpen(row.skill)}
        selected={selected}
      />
    </div>
  );
}

function skillRow(skill: SkillInfo): SkillRow {
  return { serverId: sourceGroup(skill.source).id, id: skill.key, name: skill.name, description: skill.description, skill };
}
