import { useEffect, useState } from 'react';
import type { FolderListing } from '@contract';
import { messageOf } from '../../ui/call-errors';

export interface FolderBrowserProps {
  /** The folder to list ('' = the host's home directory). Changing it lists that folder. */
  path: string;
  /** Asks the host for a folder's subfolders. */
  listFolders(path: string): Promise<FolderListing>;
  /** The user opened a folder (a subfolder, or the parent). */
  onOpen(path: string): void;
}

type Loaded = { path: string; listing: FolderListing } | { path: string; error: string };

/**
 * A simple browser of the host's folders (web mode has no native picker): the subfolders of one
 * folder, served by the host, bounded; open one to go in, or go up. Files are never listed.
 */
export function FolderBrowser({ path, listFolders, onOpen }: FolderBrowserProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let current = true;
    listFolders(path).then(
      (listing) => current && setLoaded({ path, listing }),
      (error: unknown) => current && setLoaded({ path, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [path, listFolders]);

  if (!loaded || loaded.path !== path) return <p className="muted folder-browser">Loading folders…</p>;
  if ('error' in loaded) {
    return (
      <p className="muted folder-browser" role="status">
        {loaded.error}
      </p>
    );
  }
  const { listing } = loaded;
  return (
    <nav className="folder-browser" aria-label="Folder browser">
      <p className="hint">
        In <code>{listing.path}</code>
      </p>
      <ul className="folder-list">
        {listing.parent !== null && (
          <li>
            <button type="button" className="link" onClick={() => onOpen(listing.parent!)}>
              <span aria-hidden="true">↑ </span>Up to parent folder
            </button>
          </li>
        )}
        {listing.folders.map((folder) => (
          <li key={folder.path}>
            <button type="button" className="link" onClick={() => onOpen(folder.path)}>
              <span aria-hidden="true">▸ </span>
              {folder.name}
            </button>
          </li>
        ))}
      </ul>
      {listing.folders.length === 0 && <p className="muted">No subfolders.</p>}
      {listing.truncated && <p className="muted">Not all subfolders are shown: type the path instead.</p>}
    </nav>
  );
}
