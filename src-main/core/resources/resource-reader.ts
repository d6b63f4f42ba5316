/**
 * Reads resources for the user: through the server's connection (its timeout and crash rules), every
 * read audited with why it was made, the answer previewed (capped) and kept — when the preview cut
 * something — in a bounded cache so the rest can be read in slices (and downloaded) on demand.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { HostCallError, type ContentAction, type ResourceReadPurpose, type ResourceReadView, type ResourceSlice } from '@contract';
import type { ContentAuditStore } from '../audit/content-audit-store';
import type { Clock } from '../clock';
import type { ServerAccess } from '../servers/connection/live-server';
import { ResultCache } from '../tools/result-cache';
import { previewRead, readSlice } from './read-preview';

export interface ResourceReaderDeps {
  ready: ServerAccess['ready'];
  audit: ContentAuditStore;
  clock: Clock;
}

/** What a resource read says when its server is not there or not ready (see `ServerFleet.ready`). */
export const READ_RESOURCES = 'read its resources';

export class ResourceReader {
  /** Whole answers whose previews were cut, by read id (64 reads, 256 MB at most). */
  private readonly kept = new ResultCache<ReadResourceResult>(64, 256 * 1024 * 1024);

  constructor(private readonly deps: ResourceReaderDeps) {}

  /** Reads `uri` from the server and answers with the preview. Failures are audited and thrown with the server's words. */
  async read(serverId: string, uri: string, purpose: ResourceReadPurpose): Promise<ResourceReadView> {
    const started = this.deps.clock.now();
    const { result, serverName } = await this.fetch(serverId, uri, purpose);
    const preview = previewRead(result, uri);
    const readId = randomUUID();
    if (preview.cut) this.kept.put(readId, result, preview.size);
    return {
      readId,
      serverId,
      serverName,
      uri,
      contents: preview.contents,
      readAt: started.toISOString(),
      durationMs: this.deps.clock.now().getTime() - started.getTime(),
    };
  }

  /**
   * The whole answer (for a chat attachment: the caller decides what the model gets), audited as
   * `action` with the given detail; `initiator` names who asked in the Protocol log (a server's app).
   */
  async fetch(
    serverId: string,
    uri: string,
    action: ContentAction,
    detail?: string,
    initiator?: string,
  ): Promise<{ result: ReadResourceResult; serverName: string }> {
    const connection = this.deps.ready(serverId, READ_RESOURCES);
    const audit = { action, serverId, serverName: connection.name, target: uri, ...(detail ? { detail } : {}) };
    let result: ReadResourceResult;
    try {
      result = await connection.readResource(uri, initiator ? { initiator } : undefined);
    } catch (error) {
      const message = (error as Error).message;
      this.deps.audit.record({ ...audit, outcome: 'error', error: message, at: this.deps.clock.now().toISOString() });
      throw new HostCallError('invalid_input', message);
    }
    const chars = (Array.isArray(result.contents) ? result.contents : []).reduce(
      (n, c) => n + ('text' in c && typeof c.text === 'string' ? c.text.length : 0),
      0,
    );
    this.deps.audit.record({ ...audit, outcome: 'ok', chars, at: this.deps.clock.now().toISOString() });
    return { result, serverName: connection.name };
  }

  /** More of a content item, while the read is kept. */
  part(readId: string, index: number, offset: number, limit: number): ResourceSlice {
    const result = this.kept.get(readId);
    if (!result) throw new HostCallError('invalid_input', 'That read is no longer kept in memory; read the resource again.');
    const slice = readSlice(result, index, offset, limit);
    if (!slice) throw new HostCallError('invalid_input', `The read has no content item ${index}.`);
    return slice;
  }
}
