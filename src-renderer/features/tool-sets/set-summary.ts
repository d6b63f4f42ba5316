import type { ToolSetView } from '@contract';

/** A copy's number stripped: "Everything (demo) 7" reads as "Everything (demo)" (quick-add and import number copies so). */
const baseName = (name: string) => name.replace(/ \d+$/, '');

/**
 * What a set names, in words a person reads at a glance: whole servers once each, copies counted
 * ("Everything (demo) ×11, Filesystem"), then single tools counted per server ("2 tools of Memory"),
 * not one clause per member.
 */
export function membersSummary(set: Pick<ToolSetView, 'members'>): string {
  const { servers, tools } = set.members;
  if (servers.length === 0 && tools.length === 0) return 'No members yet.';
  const counted = (names: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    return [...counts];
  };
  const whole = counted(servers.map((s) => baseName(s.name))).map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  const single = counted(tools.map((t) => t.serverName)).map(([name, n]) =>
    n === 1 ? `${tools.find((t) => t.serverName === name)?.tool} of ${name}` : `${n} tools of ${name}`,
  );
  return [whole.length > 0 ? `All of ${whole.join(', ')}` : '', single.join(', ')].filter(Boolean).join('; ');
}
