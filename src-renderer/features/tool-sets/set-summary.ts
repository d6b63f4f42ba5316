import { countedNames, type ToolSetView } from '@contract';

/**
 * What a set names, in words a person reads at a glance: whole servers once each, copies counted
 * ("All of Everything (demo) ×11, Filesystem"), then single tools counted per server ("2 tools of
 * Memory"), then whether it takes in servers added later — not one clause per member.
 */
export function membersSummary(set: Pick<ToolSetView, 'members'>): string {
  const { servers, tools, addedLater } = set.members;
  if (servers.length === 0 && tools.length === 0 && !addedLater) return 'No members yet.';
  const perServer = new Map<string, string[]>();
  for (const t of tools) perServer.set(t.serverName, [...(perServer.get(t.serverName) ?? []), t.tool]);
  const single = [...perServer].map(([name, names]) =>
    names.length === 1 ? `${names[0]} of ${name}` : `${names.length} tools of ${name}`,
  );
  return [
    servers.length > 0 ? `All of ${countedNames(servers.map((s) => s.name))}` : '',
    single.join(', '),
    addedLater ? `${servers.length + tools.length > 0 ? 'every' : 'Every'} server added later` : '',
  ]
    .filter(Boolean)
    .join('; ');
}
