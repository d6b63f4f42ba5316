import type { SkillInfo, SkillList } from '@contract';

/** A local skill (the user's skills folder). */
export function localSkill(name: string, extra: Partial<SkillInfo> = {}): SkillInfo {
  return {
    key: `local:${name}`,
    name,
    description: `What ${name} helps with`,
    source: { kind: 'local', folder: '/home/me/skills' },
    uri: `/home/me/skills/${name}/SKILL.md`,
    enabled: true,
    files: 1,
    bytes: 800,
    loadTokens: 200,
    ...extra,
  };
}

/** A skill a server serves. */
export function serverSkill(serverId: string, serverName: string, name: string, extra: Partial<SkillInfo> = {}): SkillInfo {
  return {
    key: `server:${serverId}:skill://${name}/SKILL.md`,
    name,
    description: `What ${name} helps with`,
    source: { kind: 'server', serverId, serverName },
    uri: `skill://${name}/SKILL.md`,
    enabled: true,
    files: 2,
    bytes: 5_120,
    loadTokens: 1_250,
    ...extra,
  };
}

/** A listing as `listSkills` answers it. */
export function skillList(skills: SkillInfo[], extra: Partial<SkillList> = {}): SkillList {
  const servers = new Map<string, string>();
  for (const s of skills) if (s.source.kind === 'server') servers.set(s.source.serverId, s.source.serverName);
  return {
    skills,
    local: { folder: skills.some((s) => s.source.kind === 'local') ? '/home/me/skills' : '', state: 'ok' },
    servers: [...servers].map(([serverId, serverName]) => ({ serverId, serverName, state: 'ok' as const, count: 1 })),
    ...extra,
  };
}
