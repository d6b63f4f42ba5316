import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SCRATCH_DIR } from '../data-dir';
import {
  formatBytes,
  HostCallError,
  MAX_UPLOAD_BYTES,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_IDLE_MS,
  type HandlersFor,
  type UploadPurpose,
  type uploadMethods,
} from '@contract';
import type { Clock } from '../clock';

interface Session {
  purpose: UploadPurpose;
  fileName: string;
  size: number;
  received: number;
  file: string;
  lastAt: number;
}

/** At most this many uploads at once (a page that forgets to finish them cannot fill the disk). */
const MAX_SESSIONS = 8;

/**
 * Uploads in progress: each one a file under the data directory's `tmp/uploads/`, filled chunk by
 * chunk in order, never past the size declared at the start (itself capped per purpose). A finished
 * upload is handed to whoever uses it (`take`), which then owns the file; anything else is deleted
 * when cancelled, when idle for `UPLOAD_IDLE_MS`, or when the host stops.
 */
export class UploadSessions {
  readonly name = 'uploads';
  private readonly sessions = new Map<string, Session>();
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly clock: Clock,
    private readonly limits: Record<UploadPurpose, number> = MAX_UPLOAD_BYTES,
  ) {
    this.dir = path.join(dataDir, SCRATCH_DIR, 'uploads');
  }

  get handlers(): HandlersFor<typeof uploadMethods> {
    return {
      beginUpload: async ({ purpose, fileName, size }) => ({
        uploadId: this.begin(purpose, fileName, size),
        chunkBytes: UPLOAD_CHUNK_BYTES,
      }),
      uploadChunk: async ({ uploadId, offset, data }) => ({ received: this.append(uploadId, offset, data) }),
      cancelUpload: async ({ uploadId }) => this.cancel(uploadId),
    };
  }

  begin(purpose: UploadPurpose, fileName: string, size: number): string {
    this.sweep();
    const limit = this.limits[purpose];
    if (size > limit) {
      throw new HostCallError(
        'payload_too_large',
        `${fileName} is ${formatBytes(size)}; a ${purpose} may be at most ${formatBytes(limit)}`,
      );
    }
    if (this.sessions.size >= MAX_SESSIONS) throw new HostCallError('forbidden', 'Too many uploads at once: finish or cancel one first');
    fs.mkdirSync(this.dir, { recursive: true });
    const id = crypto.randomUUID();
    const file = path.join(this.dir, `${id}.part`);
    fs.writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
    this.sessions.set(id, { purpose, fileName, size, received: 0, file, lastAt: this.clock.now().getTime() });
    return id;
  }

  append(id: string, offset: number, base64: string): number {
    const session = this.get(id);
    if (offset !== session.received) {
      // A refused upload is over: its partial file goes now, not when it would have idled out.
      this.cancel(id);
      throw new HostCallError(
        'invalid_input',
        `Chunk at ${offset} of ${session.fileName} arrived out of order (expected ${session.received}): choose the file again`,
      );
    }
    const bytes = Buffer.from(base64, 'base64');
    if (session.received + bytes.length > session.size) {
      this.cancel(id);
      throw new HostCallError('payload_too_large', `${session.fileName} is larger than the ${session.size} bytes announced`);
    }
    fs.appendFileSync(session.file, bytes);
    session.received += bytes.length;
    session.lastAt = this.clock.now().getTime();
    return session.received;
  }

  /** The finished upload's file and name; the caller owns (and deletes) the file from now on. */
  take(id: string, purpose: UploadPurpose): { file: string; fileName: string } {
    const session = this.get(id);
    if (session.purpose !== purpose) {
      this.cancel(id);
      throw new HostCallError('invalid_input', `That upload is not a ${purpose}: choose the file again`);
    }
    if (session.received !== session.size) {
      this.cancel(id);
      throw new HostCallError(
        'invalid_input',
        `${session.fileName} is not complete (${session.received} of ${session.size} bytes): choose the file again`,
      );
    }
    this.sessions.delete(id);
    return { file: session.file, fileName: session.fileName };
  }

  cancel(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    fs.rmSync(session.file, { force: true });
  }

  dispose(): void {
    for (const id of [...this.sessions.keys()]) this.cancel(id);
  }

  private get(id: string): Session {
    this.sweep();
    const session = this.sessions.get(id);
    if (!session)
      throw new HostCallError('invalid_input', 'No such upload (it finished, was cancelled, or sat idle too long): choose the file again');
    return session;
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [id, session] of this.sessions) if (now - session.lastAt > UPLOAD_IDLE_MS) this.cancel(id);
  }
}

/** The uploads area: the sessions (bundles and backups take their files), made like every other area. */
export function createUploadsArea(deps: { dataDir: string; clock: Clock }): UploadSessions {
  return new UploadSessions(deps.dataDir, deps.clock);
}
