import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FolderListing } from '@contract';
import { absoluteInput, describeFsError, RootPathError } from './root-path';

export interface ListFoldersOptions {
  showHidden?: boolean;
  /** At most this many subfolders are returned (default 500). */
  maxFolders?: number;
  /** At most this many directory entries are looked at, folders or not (default 10 000). */
  maxEntries?: number;
}

/**
 * The subfolders of a folder, for the web-mode folder browser (the browser cannot open a native
 * picker on the host's file system). Only directories (symlinks to directories included), sorted by
 * name, and bounded both in what is returned and in what is read: a folder with a million files
 * costs at most `maxEntries` directory reads.
 */
export async function listFolders(input: string, options: ListFoldersOptions = {}): Promise<FolderListing> {
  const { showHidden = false, maxFolders = 500, maxEntries = 10_000 } = options;
  const given = input.trim() === '' ? os.homedir() : absoluteInput(input);
  let dir: string;
  let handle;
  try {
    dir = await fs.realpath(given);
    handle = await fs.opendir(dir);
  } catch (error) {
    throw new RootPathError(describeFsError(error, given));
  }
  const folders: FolderListing['folders'] = [];
  let seen = 0;
  let truncated = false;
  try {
    for await (const entry of handle) {
      if (++seen > maxEntries) {
        truncated = true;
        break;
      }
      if (!showHidden && entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (!(entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(full))))) continue;
      if (folders.length >= maxFolders) {
        truncated = true;
        break;
      }
      folders.push({ name: entry.name, path: full });
    }
  } finally {
    // `for await` closes the handle when it runs to the end; after a break it may still be open.
    await handle.close().catch(() => undefined);
  }
  folders.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
  const parent = path.dirname(dir);
  return { path: dir, parent: parent === dir ? null : parent, folders, truncated };
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isDirectory();
  } catch {
    return false;
  }
}
