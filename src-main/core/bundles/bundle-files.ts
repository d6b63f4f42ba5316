import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SCRATCH_DIR } from '../data-dir';

/**
 * Where bundles live on disk: `bundles/<id>/` in the data directory, unpacked first into a fresh
 * folder under `tmp/` and moved into place (a rename, on the same disk) only when unpacking finished,
 * so `bundles/<id>/` is always either the old bundle or the whole new one.
 */
export class BundleFiles {
  readonly root: string;
  private readonly tmp: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'bundles');
    this.tmp = path.join(dataDir, SCRATCH_DIR);
  }

  dirOf(id: string): string {
    return path.join(this.root, id);
  }

  /** A new, empty folder to unpack into. */
  staging(): string {
    fs.mkdirSync(this.tmp, { recursive: true });
    return fs.mkdtempSync(path.join(this.tmp, 'bundle-'));
  }

  /**
   * Moves a finished staging folder to `bundles/<id>/`. The bundle it replaces is kept aside until
   * `finish` (deleted) or `undo` (put back, the new one removed).
   */
  moveIntoPlace(id: string, staged: string): { finish(): void; undo(): void } {
    const target = this.dirOf(id);
    fs.mkdirSync(this.root, { recursive: true });
    const previous = fs.existsSync(target) ? path.join(this.tmp, `previous-${id}-${crypto.randomUUID()}`) : undefined;
    if (previous) fs.renameSync(target, previous);
    try {
      fs.renameSync(staged, target);
    } catch (error) {
      if (previous) fs.renameSync(previous, target);
      throw error;
    }
    return {
      finish: () => {
        if (previous) fs.rmSync(previous, { recursive: true, force: true });
      },
      undo: () => {
        fs.rmSync(target, { recursive: true, force: true });
        if (previous) fs.renameSync(previous, target);
      },
    };
  }

  remove(id: string): void {
    fs.rmSync(this.dirOf(id), { recursive: true, force: true });
  }

  discard(staged: string): void {
    fs.rmSync(staged, { recursive: true, force: true });
  }
}
