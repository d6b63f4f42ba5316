import { useCallback, useEffect, useRef, useState } from 'react';
import { formatTokens, type SkillInfo, type SkillList } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';

/**
 * The host's skills (one server's, or every source's), asked again whenever the host says they
 * changed (`skillsChanged`, after the answer that was asked) or `revision` moves (the server
 * restarted). A switch's answer is applied at once, before the event's new listing arrives.
 */
export function useSkills(serverId?: string, revision?: unknown) {
  const api = useAppStore((s) => s.api);
  const skillsRevision = useAppStore((s) => s.skillsRevision);
  const [list, setList] = useState<SkillList | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The last question asked, and the last `skillsChanged` its answer includes (Infinity while it is asked). */
  const asked = useRef<{ api: unknown; serverId?: string; revision: unknown; through: number } | null>(null);
  const latest = useRef(skillsRevision);

  useEffect(() => {
    latest.current = skillsRevision;
    const last = asked.current;
    // The host announces a change while it answers (it reads the folder again): a change that came
    // before the answer is in it, so only one after it asks again — else each answer would ask again.
    if (last && last.api === api && last.serverId === serverId && Object.is(last.revision, revision) && skillsRevision <= last.through)
      return;
    const question = { api, serverId, revision, through: Infinity };
    asked.current = question;
    api.listSkills(serverId ? { serverId } : undefined).then(
      (next) => {
        if (asked.current !== question) return; // a newer question was asked
        question.through = latest.current;
        setList(next);
        setError(null);
      },
      (failure: unknown) => {
        if (asked.current !== question) return;
        question.through = latest.current;
        setError(messageOf(failure));
      },
    );
  }, [api, serverId, revision, skillsRevision]);

  /** Switches a skill; rejects with the host's error (the caller shows it). */
  const setEnabled = useCallback(
    async (key: string, enabled: boolean) => {
      const skill = await api.setSkillEnabled({ key, enabled });
      setList((old) => (old ? { ...old, skills: old.skills.map((s) => (s.key === skill.key ? skill : s)) } : old));
    },
    [api],
  );

  return { list, error, setEnabled };
}

/** A skill as its row's words say what loading it costs, or why it is refused. */
export function skillCostText(skill: SkillInfo): string {
  // The host's reasons are sentences, most already saying "refused": not said twice.
  if (skill.problem) return /\brefused\b/i.test(skill.problem) ? skill.problem : `Refused: ${skill.problem}`;
  if (skill.changed) return 'Changed by its server since you switched it on: off until you switch it on again';
  return skill.loadTokens === undefined ? 'cost known once loaded' : `≈ ${formatTokens(skill.loadTokens)} tokens to load`;
}
