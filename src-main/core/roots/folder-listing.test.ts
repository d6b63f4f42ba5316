import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { listFolders } from './folder-listing';

function tree(): string {
  const base = fs.realpathSync(tempDir('patchbay-folders-'));
  for (const dir of ['beta', 'Alpha', 'gamma 10', 'gamma 9', '.hidden', 'ünï']) fs.mkdirSync(path.join(base, dir));
  fs.writeFileSync(path.join(base, 'file.txt'), 'not a folder');
  fs.symlinkSync(path.join(base, 'beta'), path.join(base, 'link to beta'), 'dir');
  fs.symlinkSync(path.join(base, 'file.txt'), path.join(base, 'link to file'));
  fs.symlinkSync(path.join(base, 'missing'), path.join(base, 'dangling'));
  return base;
}

describe('listFolders', () => {
  it('lists only folders (links to folders too), sorted naturally, hidden ones on request', async () => {
    const base = tree();
    const listing = await listFolders(base);
    expect(listing).toMatchObject({ path: base, parent: path.dirname(base), truncated: false });
    expect(listing.folders.map((f) => f.name)).toEqual(['Alpha', 'beta', 'gamma 9', 'gamma 10', 'link to beta', 'ünï']);
    expect(listing.folders[0].path).toBe(path.join(base, 'Alpha'));
    const all = await listFolders(base, { showHidden: true });
    expect(all.folders.map((f) => f.name)).toContain('.hidden');
  });

  it('is bounded, says so, and starts at home when given no path', async () => {
    const base = tree();
    const few = await listFolders(base, { maxFolders: 2 });
    expect(few.folders).toHaveLength(2);
    expect(few.truncated).toBe(true);
    expect((await listFolders(base, { maxEntries: 1 })).truncated).toBe(true);
    expect((await listFolders('')).path).toBe(fs.realpathSync(os.homedir()));
    expect((await listFolders('/')).parent).toBeNull();
  });

  it('refuses a missing folder, a file, and a relative path', async () => {
    const base = tree();
    await expect(listFolders(path.join(base, 'nope'))).rejects.toThrow(/No such folder/);
    await expect(listFolders(path.join(base, 'file.txt'))).rejects.toThrow(/not a folder/);
    await expect(listFolders('relative')).rejects.toThrow(/full path/);
  });
});
