/**
 * Tool sets: named selections of servers and tools, and perhaps the servers added after the set was
 * saved. A set keeps the names its members had when it was saved, so a member that is gone (a removed
 * server, a tool its Ready server no longer lists) can be named when the set says so; the rest of the
 * set keeps working.
 */
import type { ToolSetMemberIds, ToolSetMembers, ToolSetView, UnavailableMember } from '@contract';
import { HostCallError } from '@contract';
import type { Clock } from '../clock';
import type { ServerFleet } from '../server-fleet/server-fleet';
import type { StoredToolSet, ToolSetRepository } from './tool-set-repository';

export class ToolSets {
  constructor(
    private readonly repo: ToolSetRepository,
    private readonly fleet: Pick<ServerFleet, 'readyNow' | 'list'>,
    private readonly serverName: (id: string) => string | undefined,
    private readonly clock: Clock,
  ) {}

  list(): ToolSetView[] {
    return this.repo.list().map((set) => this.view(set));
  }

  get(id: string): StoredToolSet | undefined {
    return this.repo.get(id);
  }

  /** Creates a set (no id) or replaces one's name and members. */
  save(input: { id?: string; name: string; members: ToolSetMemberIds }): ToolSetView {
    const members = this.named(input.members, input.id ? this.repo.get(input.id)?.members : undefined);
    if (!input.id) return this.view(this.repo.create(input.name, members, this.clock.now()));
    if (!this.repo.update(input.id, input.name, members)) {
      throw new HostCallError('invalid_input', `No tool set with id ${input.id}: it may have been deleted. Save it as a new set.`);
    }
    return this.view({ id: input.id, name: input.name, members });
  }

  remove(id: string): boolean {
    return this.repo.remove(id);
  }

  /** Members with their names: the server's current name, else the name the set had for it (a removed server). */
  private named(ids: ToolSetMemberIds, before?: ToolSetMembers): ToolSetMembers {
    const known = new Map<string, string>();
    for (const s of before?.servers ?? []) known.set(s.id, s.name);
    for (const t of before?.tools ?? []) known.set(t.serverId, t.serverName);
    const name = (id: string) => this.serverName(id) ?? known.get(id) ?? id;
    const servers = [...new Set(ids.servers)].map((id) => ({ id, name: name(id) }));
    const seen = new Set<string>();
    const tools = ids.tools.filter(
      (t) => !seen.has(JSON.stringify([t.serverId, t.tool])) && seen.add(JSON.stringify([t.serverId, t.tool])),
    );
    return {
      servers,
      tools: tools.map((t) => ({ serverId: t.serverId, serverName: name(t.serverId), tool: t.tool })),
      // Servers there are now were each chosen or left out; those added from now on join the set.
      ...(ids.addedLater ? { addedLater: { knownServerIds: this.fleet.list().map((view) => view.config.id) } } : {}),
    };
  }

  private view(set: StoredToolSet): ToolSetView {
    return { id: set.id, name: set.name, members: set.members, unavailable: this.unavailable(set.members) };
  }

  /** A removed server, or a tool its Ready server does not list (a server not Ready cannot tell: assumed there). */
  private unavailable(members: ToolSetMembers): UnavailableMember[] {
    const gone: UnavailableMember[] = [];
    for (const server of members.servers) {
      if (this.serverName(server.id) === undefined) gone.push({ kind: 'server', label: server.name });
    }
    for (const t of members.tools) {
      if (this.serverName(t.serverId) === undefined) {
        gone.push({ kind: 'tool', label: `${t.tool} on ${t.serverName} (server removed)` });
        continue;
      }
      const ready = this.fleet.readyNow(t.serverId);
      if (ready && !ready.catalog.tools.some((tool) => tool.name === t.tool)) {
        gone.push({ kind: 'tool', label: `${t.tool} on ${t.serverName}` });
      }
    }
    return gone;
  }
}
