import { z } from 'zod';
import { IdString, method, NoInput } from './method';

/**
 * Roots: the folders the user lets servers see. The host keeps the folders, a sharing policy per
 * server, the pending "Share folders" questions and an audit trail; servers only ever get the folders
 * shared with them, as `file://` URIs of their canonical (real) paths.
 */

/** One folder the user added. */
export interface RootView {
  id: string;
  name: string;
  /** The canonical path: absolute, symlinks resolved, no `..`. This is what servers get. */
  path: string;
  /** The `file://` URI servers receive. */
  uri: string;
  /** What the user picked, when it differs from `path` (a symlink, a `..`): shown so the resolution is no surprise. */
  pickedPath?: string;
  /** False while the folder is missing (deleted, unmounted, no longer a directory): then it is sent to nobody. */
  available: boolean;
  /**
   * Shared read-only: a sandboxed server gets it mounted read-only, so its writes there fail. (MCP has
   * no way to tell a server a root is read-only: a server without a sandbox is not held to it.)
   */
  readOnly: boolean;
  createdAt: string;
}

/** `undecided` until the user first answers; then what the server may see. */
export const SHARING_MODES = ['undecided', 'none', 'all', 'subset'] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

/** What one server may see. `rootIds` matters for `subset` only. */
export interface RootSharingView {
  serverId: string;
  mode: SharingMode;
  rootIds: string[];
  decidedAt?: string;
}

/**
 * A pending "Share folders" question: a server asked for roots before the user decided. Questions
 * asked while another is still open join its group (`groupId`): one folder added makes every running
 * server ask at once, and the user gets one dialog listing them all, not one dialog per server.
 */
export interface RootsConsentRequest {
  id: string;
  /** The questions answered together in one dialog share it. */
  groupId: string;
  serverId: string;
  serverName: string;
  requestedAt: string;
  /** When it counts as "Don't share" if nobody answers. */
  expiresAt: string;
}

export type RootsConsentOutcome = 'shared' | 'declined' | 'timed-out' | 'withdrawn' | 'shutdown';

/** One line of the audit trail: what was shared with whom, and when. */
export interface RootsAuditEntry {
  id: number;
  at: string;
  serverId: string;
  serverName: string;
  /** `sent`: a roots list went to the server. `sharing`: what the server may see changed. */
  action: 'sent' | 'sharing';
  roots: { uri: string; name: string }[];
  detail: string;
}

/** Everything the renderer shows about roots. */
export interface RootsSnapshot {
  roots: RootView[];
  sharing: RootSharingView[];
  /** The latest audit entries, newest first. */
  audit: RootsAuditEntry[];
}

/** A folder listing for the web-mode folder browser: subfolders only, bounded. */
export interface FolderListing {
  /** The canonical path listed. */
  path: string;
  /** Its parent, or null at the top of the file system. */
  parent: string | null;
  folders: { name: string; path: string }[];
  /** More subfolders exist than were listed. */
  truncated: boolean;
}

const RootName = z.string().trim().min(1, 'Name is required').max(100, 'At most 100 characters');

const AddRootSchema = z.object({
  /** Absolute path (or `~/…`); canonicalized by the host. */
  path: z.string().trim().min(1, 'Choose a folder').max(4096),
  name: RootName.optional(),
});
const RenameRootSchema = z.object({ id: IdString, name: RootName });
const RootIdSchema = z.object({ id: IdString });
const SetRootReadOnlySchema = z.object({ id: IdString, readOnly: z.boolean() });
const SetRootSharingSchema = z.object({
  serverId: IdString,
  mode: z.enum(['none', 'all', 'subset']),
  rootIds: z.array(IdString).max(1000).default([]),
});
const ListFoldersSchema = z.object({
  /** Empty or omitted: the user's home directory. */
  path: z.string().trim().max(4096).default(''),
  showHidden: z.boolean().default(false),
});
const ListRootsAuditSchema = z.object({
  serverId: IdString.optional(),
  limit: z.number().int().min(1).max(1000).default(100),
});

export const rootsMethods = {
  /** Adds a folder (canonicalized; must be an existing directory). Field errors on `path` / `name`. */
  addRoot: method<typeof AddRootSchema, RootView>(AddRootSchema),
  renameRoot: method<typeof RenameRootSchema, RootView>(RenameRootSchema),
  /** Shares a folder read-only (or read-write again) with every server it is shared with. */
  setRootReadOnly: method<typeof SetRootReadOnlySchema, RootView>(SetRootReadOnlySchema),
  /** Removes a folder: no server sees it any more (connected servers are told at once). */
  removeRoot: method<typeof RootIdSchema, void>(RootIdSchema),
  /** Changes what one server may see. */
  setRootSharing: method<typeof SetRootSharingSchema, RootSharingView>(SetRootSharingSchema),
  /** Opens the native folder picker (desktop app only); `path` is null when the user cancelled. */
  pickFolder: method<typeof NoInput, { path: string | null }>(NoInput),
  /** Lists the subfolders of a folder, for the web-mode folder browser. */
  listFolders: method<typeof ListFoldersSchema, FolderListing>(ListFoldersSchema),
  /** The audit trail, newest first (optionally for one server). */
  listRootsAudit: method<typeof ListRootsAuditSchema, RootsAuditEntry[]>(ListRootsAuditSchema),
};

export interface RootsEvents {
  /** The folders, their availability, or a sharing policy changed. */
  rootsChanged: { roots: RootView[]; sharing: RootSharingView[] };
  rootsAuditAppended: RootsAuditEntry;
}
