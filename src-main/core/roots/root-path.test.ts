import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { absoluteInput, canonicalizeFolder, defaultRootName, isRootAvailable, RootPathError, rootUri } from './root-path';

const realTemp = () => fs.realpathSync(tempDir('patchbay-root-path-'));

describe('canonicalizeFolder', () => {
  it('keeps a plain folder as it is, including spaces and non-ASCII characters', async () => {
    const dir = path.join(realTemp(), 'My Projects – ü 日本');
    fs.mkdirSync(dir);
    expect(await canonicalizeFolder(dir)).toEqual({ path: dir });
    expect(await canonicalizeFolder(`${dir}/`)).toEqual({ path: dir });
  });

  it('resolves a symlink to its real target, even one pointing outside, and says what was picked', async () => {
    const base = realTemp();
    const outside = path.join(base, 'elsewhere', 'target');
    fs.mkdirSync(outside, { recursive: true });
    const inside = path.join(base, 'home');
    fs.mkdirSync(inside);
    const link = path.join(inside, 'link');
    fs.symlinkSync(outside, link, 'dir');
    expect(await canonicalizeFolder(link)).toEqual({ path: outside, pickedPath: link });
    // `..` is applied after resolving the link (the real parent), never textually.
    expect(await canonicalizeFolder(`${link}/..`)).toEqual({ path: path.dirname(outside), pickedPath: `${link}/..` });
  });

  it('removes `.` and `..` segments', async () => {
    const base = realTemp();
    fs.mkdirSync(path.join(base, 'a', 'b'), { recursive: true });
    expect(await canonicalizeFolder(`${base}/a/./b/../b/..`)).toEqual({ path: path.join(base, 'a'), pickedPath: `${base}/a/./b/../b/..` });
  });

  it('refuses what is not an existing folder, with a sentence for the user', async () => {
    const base = realTemp();
    fs.writeFileSync(path.join(base, 'file.txt'), 'x');
    await expect(canonicalizeFolder(path.join(base, 'file.txt'))).rejects.toThrow(/is a file, not a folder/);
    await expect(canonicalizeFolder(path.join(base, 'missing'))).rejects.toThrow(/^No such folder/);
    await expect(canonicalizeFolder('relative/dir')).rejects.toBeInstanceOf(RootPathError);
    const loop = path.join(base, 'loop');
    fs.symlinkSync(loop, loop);
    await expect(canonicalizeFolder(loop)).rejects.toThrow(/symlink loop/);
  });

  it('expands ~ to the home directory', () => {
    expect(absoluteInput('~', '/home/u')).toBe('/home/u');
    expect(absoluteInput('~/code', '/home/u')).toBe(path.join('/home/u', 'code'));
    expect(() => absoluteInput('~other/code', '/home/u')).toThrow(RootPathError);
  });
});

describe('rootUri', () => {
  it('encodes spaces, non-ASCII and URI delimiters, and round-trips', () => {
    const dir = '/home/ana/My Docs/ünï 日本/#1 50% ?';
    const uri = rootUri(dir, false);
    expect(uri).toBe('file:///home/ana/My%20Docs/%C3%BCn%C3%AF%20%E6%97%A5%E6%9C%AC/%231%2050%25%20%3F');
    expect(fileURLToPath(uri, { windows: false })).toBe(dir);
  });

  it('writes Windows drive letters and UNC shares the way file URIs want them', () => {
    expect(rootUri('C:\\Users\\Åsa\\My Docs', true)).toBe('file:///C:/Users/%C3%85sa/My%20Docs');
    expect(rootUri('D:\\', true)).toBe('file:///D:/');
    expect(rootUri('\\\\fileserver\\share\\team docs', true)).toBe('file://fileserver/share/team%20docs');
    expect(fileURLToPath('file:///C:/Users/%C3%85sa/My%20Docs', { windows: true })).toBe('C:\\Users\\Åsa\\My Docs');
  });
});

describe('isRootAvailable', () => {
  it('is false once the folder is deleted, replaced by a file, or by a symlink elsewhere', async () => {
    const base = realTemp();
    const dir = path.join(base, 'shared');
    fs.mkdirSync(dir);
    expect(await isRootAvailable(dir)).toBe(true);
    fs.rmdirSync(dir);
    expect(await isRootAvailable(dir)).toBe(false);
    fs.writeFileSync(dir, 'now a file');
    expect(await isRootAvailable(dir)).toBe(false);
    fs.rmSync(dir);
    fs.symlinkSync(os.tmpdir(), dir, 'dir');
    expect(await isRootAvailable(dir)).toBe(false);
  });
});

describe('defaultRootName', () => {
  it('is the last segment, or the path itself for the top of the file system', () => {
    expect(defaultRootName('/home/ana/My Docs')).toBe('My Docs');
    expect(defaultRootName('/')).toBe('/');
  });
});
