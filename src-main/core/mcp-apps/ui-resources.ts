/**
 * Apps' `ui://` resources: read through the server that owns them (each read audited as the app's),
 * checked (the app MIME type, HTML as text or base64, within a size cap), and kept per server until
 * that server's lists change or it stops — the spec lets hosts cache templates, and an app shown in
 * twenty tool cards is read once.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { APP_MIME_TYPE, HostCallError } from '@contract';
import type { DeclaredCsp } from './app-csp';

/** Largest app HTML Patchbay loads. */
export const MAX_APP_HTML_CHARS = 4 * 1024 * 1024;

/** One app resource, ready to show. */
export interface UiResource {
  uri: string;
  html: string;
  csp?: DeclaredCsp;
  prefersBorder?: boolean;
}

/** Reads a resource for an app (audited by the reader). */
export type UiResourceFetch = (serverId: string, uri: string) => Promise<{ result: ReadResourceResult; serverName: string }>;

export class UiResourceCache {
  private readonly byServer = new Map<string, Map<string, Promise<UiResource>>>();

  constructor(private readonly fetch: UiResourceFetch) {}

  /** The app resource `uri` of the server, read once until `drop`. A failed read is not kept. */
  get(serverId: string, serverName: string, uri: string): Promise<UiResource> {
    let server = this.byServer.get(serverId);
    if (!server) this.byServer.set(serverId, (server = new Map()));
    const cached = server.get(uri);
    if (cached) return cached;
    const loading = this.load(serverId, serverName, uri);
    server.set(uri, loading);
    loading.catch(() => {
      if (this.byServer.get(serverId)?.get(uri) === loading) this.byServer.get(serverId)?.delete(uri);
    });
    return loading;
  }

  /** Forgets what the server's app resources were (its lists changed, it stopped, it was removed). */
  drop(serverId: string): void {
    this.byServer.delete(serverId);
  }

  private async load(serverId: string, serverName: string, uri: string): Promise<UiResource> {
    const { result } = await this.fetch(serverId, uri);
    const contents = Array.isArray(result.contents) ? (result.contents as Record<string, unknown>[]) : [];
    const item = contents.find((c) => c.uri === uri) ?? contents[0];
    const fail = (why: string): never => {
      throw new HostCallError('invalid_input', `The app of server "${serverName}" (${uri}) cannot be shown: ${why}.`);
    };
    if (!item) return fail('the server returned no content for it');
    const mime = typeof item.mimeType === 'string' ? item.mimeType : '';
    if (!/^text\/html(\s*;|$)/i.test(mime)) return fail(`it is ${mime || 'of no type'}, not ${APP_MIME_TYPE}`);
    const html =
      typeof item.text === 'string'
        ? item.text
        : typeof item.blob === 'string'
          ? Buffer.from(item.blob, 'base64').toString('utf8')
          : fail('it has neither text nor blob');
    if (html.length > MAX_APP_HTML_CHARS)
      fail(
        `it is ${html.length.toLocaleString('en-US')} characters, over Patchbay's limit of ${MAX_APP_HTML_CHARS.toLocaleString('en-US')}`,
      );
    const ui = ((item._meta as Record<string, unknown> | undefined)?.ui ?? {}) as Record<string, unknown>;
    return {
      uri,
      html,
      ...(ui.csp && typeof ui.csp === 'object' ? { csp: ui.csp as DeclaredCsp } : {}),
      ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
    };
  }
}
