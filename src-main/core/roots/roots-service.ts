import type { Root } from '@modelcontextprotocol/client';
import { HostCallError, type RootsAuditEntry, type RootSharingView, type RootView } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';
import { canonicalizeFolder, defaultRootName, isRootAvailable, RootPathError, rootUri } from './root-path';
import type { RootsAuditRepository } from './roots-audit-repository';
import type { DecidedSharing, RootsRepository, StoredRoot } from './roots-repository';

/** A folder as a sandbox mounts it. */
export interface SharedFolder {
  path: string;
  readOnly: boolean;
}

/** What a change may mean for connected servers. `revoke`: the user took access away. */
export interface RootsChange {
  revoke: boolean;
}

export interface RootsServiceOptions {
  repo: RootsRepository;
  audit: RootsAuditRepository;
  events: HostEventBus;
  clock: Clock;
  /** The configured server's name, or undefined when there is no such server. */
  serverName(id: string): string | undefined;
}

const DESCRIBE_MODE: Record<DecidedSharing['mode'], string> = {
  none: 'Shares no folders',
  all: 'Shares all folders, including ones added later',
  subset: 'Shares only the chosen folders',
};

/**
 * The folders, their availability and every server's sharing policy: the user's operations on them,
 * and the one answer to "which roots does this server get". Each change is persisted first, then
 * pushed to the renderer (`rootsChanged`) and reported to `onChanged` (which tells connected servers).
 */
export class RootsService {
  /** Last known availability per folder id; refreshed on every roots/list and by the monitor. */
  private readonly availability = new Map<string, boolean>();
  /** Set by the composition: tells connected servers about a change. */
  onChanged: (change: RootsChange) => void = () => {};
  private changeQueued = false;
  /** Inside `batch`: the changes held back (merged), told once at its end. */
  private held: RootsChange | undefined;
  private batching = false;

  constructor(private readonly options: RootsServiceOptions) {}

  views(): RootView[] {
    return this.options.repo.list().map((root) => this.view(root));
  }

  /** Decided policies only; a server without one is `undecided`. */
  sharingViews(): RootSharingView[] {
    return this.options.repo.listSharing();
  }

  /** The server's policy, or undefined while undecided. */
  policy(serverId: string): DecidedSharing | undefined {
    return this.options.repo.sharing(serverId);
  }

  hasRoots(): boolean {
    return this.options.repo.list().length > 0;
  }

  async add(input: string, name?: string): Promise<RootView> {
    let folder;
    try {
      folder = await canonicalizeFolder(input);
    } catch (error) {
      if (error instanceof RootPathError) throw fieldError('path', error.message);
      throw error;
    }
    const existing = this.options.repo.findByPath(folder.path);
    if (existing) throw fieldError('path', `Already added as “${existing.name}” (${existing.path}).`);
    const root = this.options.repo.insert({ name: name ?? defaultRootName(folder.path), ...folder }, this.options.clock.now());
    this.availability.set(root.id, true);
    this.changed({ revoke: false });
    return this.view(root);
  }

  rename(id: string, name: string): RootView {
    const root = this.options.repo.rename(id, name);
    if (!root) throw new HostCallError('invalid_input', `No folder with id ${id}`);
    this.changed({ revoke: false });
    return this.view(root);
  }

  /** Read-only takes write access away (a sandboxed server restarts with the folder mounted read-only). */
  setReadOnly(id: string, readOnly: boolean): RootView {
    const root = this.options.repo.setReadOnly(id, readOnly);
    if (!root) throw new HostCallError('invalid_input', `No folder with id ${id}`);
    this.changed({ revoke: readOnly });
    return this.view(root);
  }

  remove(id: string): void {
    if (!this.options.repo.remove(id)) throw new HostCallError('invalid_input', `No folder with id ${id}`);
    this.availability.delete(id);
    this.changed({ revoke: true });
  }

  /** Sets what a server may see; audited with `how` (e.g. "Changed on the server page"). */
  setSharing(serverId: string, mode: DecidedSharing['mode'], rootIds: readonly string[], how: string): RootSharingView {
    const serverName = this.options.serverName(serverId);
    if (serverName === undefined) throw new HostCallError('invalid_input', `No server with id ${serverId}`);
    const before = this.options.repo.sharing(serverId);
    const sharing = this.options.repo.setSharing(serverId, mode, rootIds, this.options.clock.now());
    const roots = this.chosen(sharing).map((root) => plainRoot(this.toRoot(root)));
    this.appendAudit({ serverId, serverName, action: 'sharing', roots, detail: `${DESCRIBE_MODE[mode]} (${how})` });
    this.changed({ revoke: before !== undefined && isNarrower(before, sharing) });
    return sharing;
  }

  /**
   * The roots `serverId` gets right now: its policy applied, unavailable folders left out (each one
   * re-checked now, so a deleted folder is never sent). Undecided servers get none.
   */
  async sharedWith(serverId: string): Promise<Root[]> {
    const sharing = this.options.repo.sharing(serverId);
    if (!sharing) return [];
    const candidates = this.chosen(sharing);
    const available = await Promise.all(candidates.map((root) => this.check(root)));
    return candidates.filter((_, i) => available[i]).map((root) => this.toRoot(root));
  }

  /** The folders `serverId` gets right now (as `sharedWith`), as paths with whether each is shared read-only. */
  async sharedFolders(serverId: string): Promise<SharedFolder[]> {
    const sharing = this.options.repo.sharing(serverId);
    if (!sharing) return [];
    const candidates = this.chosen(sharing);
    const available = await Promise.all(candidates.map((root) => this.check(root)));
    return candidates.filter((_, i) => available[i]).map((root) => ({ path: root.path, readOnly: root.readOnly }));
  }

  /** Re-checks every folder; true (and `rootsChanged` + servers told) when any availability changed. */
  async refreshAvailability(): Promise<boolean> {
    const roots = this.options.repo.list();
    const before = roots.map((root) => this.availability.get(root.id) ?? true);
    const after = await Promise.all(roots.map((root) => this.check(root, false)));
    const changed = after.some((available, i) => available !== before[i]);
    if (changed) this.changed({ revoke: false });
    return changed;
  }

  /** Records a roots list sent to a server (the audit trail's "what was shared with whom"). */
  recordSent(server: ServerRef, roots: Root[]): void {
    const detail = roots.length === 0 ? 'Sent an empty list' : `Sent ${roots.length} folder${roots.length === 1 ? '' : 's'}`;
    this.appendAudit({ serverId: server.id, serverName: server.name, action: 'sent', roots: roots.map(plainRoot), detail });
  }

  /** Records a decision that changed nothing stored (e.g. a question nobody answered). */
  recordNote(server: ServerRef, detail: string): void {
    this.appendAudit({ serverId: server.id, serverName: server.name, action: 'sharing', roots: [], detail });
  }

  /** Pushes the current folders and policies to the renderer, then tells connected servers. */
  changed(change: RootsChange): void {
    if (this.batching) {
      this.held = { revoke: (this.held?.revoke ?? false) || change.revoke };
      return;
    }
    this.options.events.emit('rootsChanged', { roots: this.views(), sharing: this.sharingViews() });
    this.onChanged(change);
  }

  /** Runs several changes (the answers to a group of questions) and tells the renderer and servers once. */
  batch(changes: () => void): void {
    if (this.batching) return changes();
    this.batching = true;
    try {
      changes();
    } finally {
      this.batching = false;
      const held = this.held;
      this.held = undefined;
      if (held) this.changed(held);
    }
  }

  private chosen(sharing: DecidedSharing): StoredRoot[] {
    const all = this.options.repo.list();
    if (sharing.mode === 'all') return all;
    if (sharing.mode === 'none') return [];
    const ids = new Set(sharing.rootIds);
    return all.filter((root) => ids.has(root.id));
  }

  /** Checks one folder; a change is pushed at once unless the caller batches (`report` false). */
  private async check(root: StoredRoot, report = true): Promise<boolean> {
    const available = await isRootAvailable(root.path);
    const before = this.availability.get(root.id) ?? true;
    this.availability.set(root.id, available);
    if (report && before !== available && !this.changeQueued) {
      // Several folders may flip in one pass: report them together, after the current answer is built.
      this.changeQueued = true;
      queueMicrotask(() => {
        this.changeQueued = false;
        this.changed({ revoke: false });
      });
    }
    return available;
  }

  private view(root: StoredRoot): RootView {
    return { ...root, uri: rootUri(root.path), available: this.availability.get(root.id) ?? true };
  }

  private toRoot(root: StoredRoot): Root {
    return { uri: rootUri(root.path), name: root.name };
  }

  private appendAudit(entry: Omit<RootsAuditEntry, 'id' | 'at'>): void {
    const appended = this.options.audit.append({ at: this.options.clock.now().toISOString(), ...entry });
    this.options.events.emit('rootsAuditAppended', appended);
  }
}

const plainRoot = (root: Root) => ({ uri: root.uri, name: root.name ?? '' });

/** A field error the forms show next to the field. */
function fieldError(field: string, message: string): HostCallError {
  return new HostCallError('invalid_input', message, [{ path: [field], message }]);
}

/** True when `after` may lose folders `before` allowed (only then can access be taken away). */
function isNarrower(before: DecidedSharing, after: DecidedSharing): boolean {
  if (after.mode === 'all' || before.mode === 'none') return false;
  if (after.mode === 'none') return true;
  if (before.mode === 'all') return true;
  const kept = new Set(after.rootIds);
  return before.rootIds.some((id) => !kept.has(id));
}
