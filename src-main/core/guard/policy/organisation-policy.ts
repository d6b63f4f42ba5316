/**
 * The organisation's policy as in force: read once at start (before any server starts), then again
 * whenever the file changes (fs.watch on its folder, which sees a file created, replaced or removed).
 * A file that cannot be read or does not check out leaves the last policy read in force and is
 * reported (`problem`: the banner names the file and the error); a removed file ends the policy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseManagedSettings, readManagedSettings, type ManagedPolicy, type ManagedRead } from './managed-settings';

export interface PolicyProblem {
  file: string;
  message: string;
}

export class OrganisationPolicy {
  private policy: ManagedPolicy | undefined;
  private trouble: PolicyProblem | undefined;
  private watcher: fs.FSWatcher | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly onChange: () => void,
  ) {
    let first: ManagedRead;
    try {
      first = parseManagedSettings(file, fs.readFileSync(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      first = code === 'ENOENT' ? { kind: 'absent' } : { kind: 'error', message: `It cannot be read: ${(error as Error).message}` };
    }
    this.apply(first);
  }

  /** The policy in force; undefined when there is none. */
  get current(): ManagedPolicy | undefined {
    return this.policy;
  }

  /** What is wrong with the file now (the last good policy stays in force meanwhile). */
  get problem(): PolicyProblem | undefined {
    return this.trouble;
  }

  /** Watches the file's folder, when there is one (no folder: no file to watch for, nothing to pay). */
  watch(): void {
    if (this.closed || this.watcher) return;
    const name = path.basename(this.file);
    try {
      this.watcher = fs.watch(path.dirname(this.file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) void this.reread();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No admin folder on this machine: nothing is managed.
    }
  }

  /** Reads the file again (one read at a time; a change during a read reads once more after it). */
  reread(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        const read = await readManagedSettings(this.file);
        if (this.closed) return;
        this.apply(read);
        this.onChange();
      } while (this.again);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  dispose(): void {
    this.closed = true;
    this.watcher?.close();
  }

  private apply(read: ManagedRead): void {
    if (read.kind === 'error') {
      this.trouble = { file: this.file, message: read.message };
      return;
    }
    this.trouble = undefined;
    this.policy = read.kind === 'ok' ? read.policy : undefined;
  }
}
