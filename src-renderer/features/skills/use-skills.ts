import { useCallback, useEffect, useState } from 'react';
import { formatTokens, type SkillInfo, type SkillList } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';

/**
 * The host's skills (one server's, or every source's), asked again whenever the host says they
 * changed (`skillsChanged`) or `revision` moves (the server restarted). A switch's answer is applied
 * at once, before the event's new listing arrives.
 */
export function useSkills(serverId?: string, revision?: unknown) {
  const api = useAppStore((s) => s.api);
  const skillsRevision = useAppStore((s) => s.skillsRevision);
  const [list, setList] = useState<SkillList | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    api.listSkills(serverId ? { serverId } : undefined).then(
      (next) => current && (setList(next), setError(null)),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
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
  if (skill.problem) return `Refused: ${skill.problem}`;
  return skill.loadTokens === undefined ? 'cost known once loaded' : `≈ ${formatTokens(skill.loadTokens)} tokens to load`;
}
