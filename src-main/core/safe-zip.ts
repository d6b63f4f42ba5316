/**
 * Reading zip archives we did not make (MCP bundles, backups) without trusting them: every entry's
 * name is checked before anything is written (no absolute paths, no `..`, no backslashes, no links),
 * the entry count, the total unpacked size and the compression ratio are capped from the central
 * directory first, and yauzl checks while unpacking that no entry inflates past the size it declared
 * (a zip bomb that lies about its sizes fails there). Files are only ever written below the target
 * directory, which the caller makes fresh and moves into place when everything checked out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { formatBytes } from '@contract';

/** What an archive may hold. */
export interface ZipLimits {
  /** Most entries (files and folders). */
  maxEntries: number;
  /** Most bytes once unpacked, all entries together. */
  maxUnpackedBytes: number;
  /** Highest unpacked/packed ratio, of the whole archive and of any entry over 1 MB: zip bombs reach thousands. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 20_000, maxUnpackedBytes: 512 * 1024 * 1024, maxRatio: 200 };

/** Why an archive was refused, in words for the user. */
export class ZipRefusedError extends Error {
  override name = 'ZipRefusedError';
}

/** One checked entry. */
export interface ZipItem {
  /** Its path inside the archive, `/`-separated, without a trailing slash for folders. */
  name: string;
  directory: boolean;
  size: number;
  /** Unix permission bits when the archive records them (0 when not). */
  mode: number;
}

/** A checked archive: its entries, and how to read them. */
export interface CheckedZip {
  items: ZipItem[];
  unpackedBytes: number;
  /** One entry's bytes (at most `maxBytes`), or undefined when there is no such file. */
  read(name: string, maxBytes: number): Promise<Buffer | undefined>;
  /** Writes every entry below `targetDir` (which must exist and be empty). */
  extractTo(targetDir: string): Promise<void>;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * Reads the central directory of an archive — in memory, or a file (read from disk as needed, for
 * archives too large to hold) — and checks every entry against `limits`.
 */
export async function checkZip(source: Buffer | string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<CheckedZip> {
  const packedBytes = typeof source === 'string' ? fs.statSync(source).size : source.length;
  const entries = new Map<string, yauzl.Entry>();
  const items: ZipItem[] = [];
  let unpackedBytes = 0;
  const zip = await openZip(source);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ZipRefusedError(`it holds ${zip.entryCount} files, more than the ${limits.maxEntries} allowed`);
  }
  try {
    for await (const entry of zip.eachEntry()) {
      const item = checkEntry(entry, limits);
      const key = item.name.toLowerCase();
      if (entries.has(key)) throw new ZipRefusedError(`it holds ${item.name} twice`);
      entries.set(key, entry);
      unpackedBytes += item.size;
      if (unpackedBytes > limits.maxUnpackedBytes) {
        throw new ZipRefusedError(`it unpacks to more than ${formatBytes(limits.maxUnpackedBytes)}, more than allowed`);
      }
      items.push(item);
    }
  } catch (error) {
    zip.close();
    throw refusal(error);
  }
  zip.close();
  if (unpackedBytes > 1024 * 1024 && unpackedBytes / Math.max(1, packedBytes) > limits.maxRatio) {
    throw new ZipRefusedError(`it is compressed ${Math.round(unpackedBytes / packedBytes)} to 1, the mark of a zip bomb`);
  }

  const openEntry = async (entry: yauzl.Entry) => {
    const again = await openZip(source);
    try {
      return { stream: await again.openReadStreamPromise(entry), zip: again };
    } catch (error) {
      again.close();
      throw refusal(error);
    }
  };

  return {
    items,
    unpackedBytes,
    async read(name, maxBytes) {
      const entry = entries.get(name.toLowerCase());
      if (!entry || entry.fileName.endsWith('/') || entry.fileName !== name) return undefined;
      if (entry.uncompressedSize > maxBytes) throw new ZipRefusedError(`${name} is larger than ${formatBytes(maxBytes)}`);
      const { stream, zip: opened } = await openEntry(entry);
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      } catch (error) {
        throw refusal(error);
      } finally {
        opened.close();
      }
    },
    async extractTo(targetDir) {
      const root = path.resolve(targetDir);
      for (const item of items) {
        const destination = path.resolve(root, ...item.name.split('/'));
        // Checked by name already; checked again as a path, in case the platform reads names differently.
        if (!destination.startsWith(root + path.sep)) throw new ZipRefusedError(`${item.name} would be written outside the bundle`);
        if (item.directory) {
          fs.mkdirSync(destination, { recursive: true });
          continue;
        }
        fs.mkdirSync(path.dirname(destination), { recursive: true });
        const { stream, zip: opened } = await openEntry(entries.get(item.name.toLowerCase())!);
        try {
          // 'wx': never through a file or link that is already there.
          await pipeline(stream, fs.createWriteStream(destination, { flags: 'wx', mode: fileMode(item.mode) }));
        } catch (error) {
          throw refusal(error);
        } finally {
          opened.close();
        }
      }
    },
  };
}

function openZip(source: Buffer | string): Promise<yauzl.ZipFile> {
  const options = { validateEntrySizes: true, strictFileNames: true, autoClose: false };
  const opening = typeof source === 'string' ? yauzl.openPromise(source, options) : yauzl.fromBufferPromise(source, options);
  return opening.catch((error: unknown) => {
    throw refusal(error);
  });
}

/** One entry's checks: a plain relative name, a file or folder (never a link), not encrypted, not a lone bomb. */
function checkEntry(entry: yauzl.Entry, limits: ZipLimits): ZipItem {
  const raw = entry.fileName;
  const directory = raw.endsWith('/');
  const name = directory ? raw.slice(0, -1) : raw;
  if (
    name === '' ||
    name.length > 500 ||
    /[\0:]/.test(name) ||
    name.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new ZipRefusedError(`it holds a path that escapes the bundle or is not valid: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (entry.isEncrypted()) throw new ZipRefusedError(`${name} is encrypted`);
  const madeByUnix = entry.versionMadeBy >> 8 === 3;
  const mode = madeByUnix ? entry.externalFileAttributes >>> 16 : 0;
  const type = mode & S_IFMT;
  if (madeByUnix && type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    throw new ZipRefusedError(`${name} is ${type === S_IFLNK ? 'a symbolic link' : 'not a plain file'}, which bundles may not hold`);
  }
  if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio) {
    throw new ZipRefusedError(
      `${name} is compressed ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} to 1, the mark of a zip bomb`,
    );
  }
  return { name, directory, size: entry.uncompressedSize, mode: mode & 0o777 };
}

/** Files keep their owner's execute bit (a bundled binary must run); nothing is ever writable by others or set-id. */
function fileMode(mode: number): number {
  return mode & 0o100 ? 0o755 : 0o644;
}

/** yauzl's complaints, in the words a refusal uses. */
function refusal(error: unknown): Error {
  if (error instanceof ZipRefusedError) return error;
  const message = (error as Error).message ?? String(error);
  if (/invalid relative path|absolute path|invalid characters in fileName/i.test(message)) {
    return new ZipRefusedError(`it holds a path that escapes the bundle: ${message.replace(/^.*?: /, '')}`);
  }
  if (/too many bytes|too few bytes|uncompressedSize/i.test(message)) {
    return new ZipRefusedError('a file unpacks to a different size than it declares (a zip bomb, or a damaged file)');
  }
  if ((error as { code?: string }).code === 'EEXIST') return new ZipRefusedError('it writes one file twice');
  return new ZipRefusedError(`it is not a readable zip archive (${message})`);
}
