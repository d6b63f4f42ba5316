/**
 * Followed resources. The user's subscriptions are stored (they survive restarts of the server and of
 * Patchbay) and re-sent whenever the server becomes ready, until the user unsubscribes:
 * - 2025 era: one `resources/subscribe` per URI (and `resources/unsubscribe`);
 * - 2026 era: one `subscriptions/listen` stream carrying every followed URI of the server, opened
 *   again with the new set when it changes (the new stream is acknowledged before the old one closes,
 *   so no update falls in between), and again after an unexpected drop.
 * `notifications/resources/updated` for a followed URI becomes `resourceUpdated` (the renderer re-reads
 * what it shows). Work for one server runs one step at a time, in order.
 */
import type { McpSubscription } from '@modelcontextprotocol/client';
import { HostCallError, type ResourceSubscriptionView } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ReadyServer } from '../servers/connection/live-server';
import type { SubscriptionRepository } from './subscription-repository';

export interface ResourceSubscriptionsDeps {
  repo: SubscriptionRepository;
  readyNow(serverId: string): ReadyServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  events: HostEventBus;
  clock: Clock;
  /** Re-listen after an unexpected drop of a 2026-era stream (test seam). */
  relistenDelayMs?: number;
  onWarning?(serverId: string, message: string): void;
}

const key = (serverId: string, uri: string) => `${serverId}\n${uri}`;
const MAX_RELISTENS = 5;

export class ResourceSubscriptions {
  private readonly views = new Map<string, ResourceSubscriptionView>();
  /** 2026 era: the open stream per server and the URIs it carries. */
  private readonly streams = new Map<string, McpSubscription>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Bumped when a server stops being ready: work for an older life is dropped. */
  private readonly lives = new Map<string, number>();
  private readonly relistens = new Map<string, number>();

  constructor(private readonly deps: ResourceSubscriptionsDeps) {
    for (const row of deps.repo.list())
      this.views.set(key(row.serverId, row.uri), { serverId: row.serverId, uri: row.uri, since: row.createdAt, state: 'pending' });
  }

  list(): ResourceSubscriptionView[] {
    return [...this.views.values()].map((v) => ({ ...v }));
  }

  /** Follows a resource of a ready server that supports subscriptions. */
  async subscribe(serverId: string, uri: string): Promise<ResourceSubscriptionView[]> {
    const connection = this.readyConnection(serverId);
    const capabilities = connection.state.server.capabilities;
    if (!capabilities.resources?.subscribe)
      throw new HostCallError('invalid_input', `Server "${connection.name}" does not offer resource subscriptions.`);
    const at = this.deps.clock.now();
    this.deps.repo.add(serverId, uri, at);
    const existing = this.views.get(key(serverId, uri));
    this.views.set(key(serverId, uri), { serverId, uri, since: existing?.since ?? at.toISOString(), state: 'pending' });
    this.changed();
    await this.enqueue(serverId, () => this.sync(serverId, [uri]));
    const view = this.views.get(key(serverId, uri));
    if (view?.state === 'failed') {
      // Refused now: not kept (a subscription that fails on a later start stays, marked failed, until removed).
      this.views.delete(key(serverId, uri));
      this.deps.repo.remove(serverId, uri);
      this.changed();
      throw new HostCallError('invalid_input', `Could not follow ${uri}: ${view.error ?? 'the server refused.'}`);
    }
    return this.list();
  }

  /** Stops following it; the local subscription ends even if the server cannot be told. */
  async unsubscribe(serverId: string, uri: string): Promise<ResourceSubscriptionView[]> {
    const had = this.views.delete(key(serverId, uri));
    this.deps.repo.remove(serverId, uri);
    if (had) this.changed();
    const connection = this.deps.readyNow(serverId);
    if (connection) {
      await this.enqueue(serverId, async () => {
        // Still this life of the server (one that stopped meanwhile just fails to unsubscribe).
        if (this.deps.readyNow(serverId) === connection && connection.state.server.era === 'modern')
          await this.relisten(serverId, connection);
        else await connection.unsubscribeResource(uri).catch((e: Error) => this.deps.onWarning?.(serverId, e.message));
      });
    }
    return this.list();
  }

  /** A server's state changed: subscribe everything again once it is ready; pending while it is not. */
  onStateChange(serverId: string, status: string): void {
    if (status === 'ready') {
      this.relistens.delete(serverId);
      const uris = this.urisOf(serverId);
      if (uris.length > 0) void this.enqueue(serverId, () => this.sync(serverId, uris));
      return;
    }
    this.lives.set(serverId, (this.lives.get(serverId) ?? 0) + 1);
    // The session (and any listen stream on it) is gone with the old life.
    this.streams.delete(serverId);
    let touched = false;
    for (const view of this.views.values()) {
      if (view.serverId === serverId && view.state !== 'pending') {
        view.state = 'pending';
        delete view.error;
        touched = true;
      }
    }
    if (touched) this.changed();
  }

  /** `notifications/resources/updated` from a server. Ignored unless the user follows that URI. */
  onUpdated(serverId: string, uri: string): void {
    const view = this.views.get(key(serverId, uri));
    if (!view) return;
    const at = this.deps.clock.now().toISOString();
    view.updatedAt = at;
    this.deps.events.emit('resourceUpdated', { serverId, uri, at });
    this.changed();
  }

  /** The server was removed: its subscriptions go with it. */
  forget(serverId: string): void {
    this.deps.repo.forgetServer(serverId);
    this.streams.delete(serverId);
    let touched = false;
    for (const [k, view] of this.views) if (view.serverId === serverId) touched = this.views.delete(k) || touched;
    if (touched) this.changed();
  }

  /** Closes 2026-era streams (quit). */
  async dispose(): Promise<void> {
    const streams = [...this.streams.values()];
    this.streams.clear();
    await Promise.all(streams.map((s) => s.close().catch(() => undefined)));
  }

  private urisOf(serverId: string): string[] {
    return [...this.views.values()].filter((v) => v.serverId === serverId).map((v) => v.uri);
  }

  private readyConnection(serverId: string): ReadyServer {
    return this.deps.ready(serverId, 'follow its resources');
  }

  /** Sends what the server needs to follow `uris` (2025: each; 2026: the whole set again). */
  private async sync(serverId: string, uris: string[]): Promise<void> {
    const connection = this.deps.readyNow(serverId);
    if (!connection) return;
    if (connection.state.server.era === 'modern') return this.relisten(serverId, connection);
    const life = this.lives.get(serverId) ?? 0;
    await Promise.all(
      uris.map(async (uri) => {
        try {
          await connection.subscribeResource(uri);
          this.settle(serverId, uri, life, 'active');
        } catch (error) {
          this.settle(serverId, uri, life, 'failed', (error as Error).message);
        }
      }),
    );
  }

  /** 2026 era: opens a stream with every followed URI of the server, then closes the previous one. */
  private async relisten(serverId: string, connection: ReadyServer): Promise<void> {
    const life = this.lives.get(serverId) ?? 0;
    const uris = this.urisOf(serverId);
    const previous = this.streams.get(serverId);
    this.streams.delete(serverId);
    if (uris.length > 0) {
      try {
        const stream = await connection.listenForResources(uris);
        if ((this.lives.get(serverId) ?? 0) !== life) {
          void stream.close().catch(() => undefined);
        } else {
          this.streams.set(serverId, stream);
          const honored = new Set(stream.honoredFilter.resourceSubscriptions ?? []);
          for (const uri of uris) {
            if (honored.has(uri)) this.settle(serverId, uri, life, 'active');
            else this.settle(serverId, uri, life, 'failed', `Server "${connection.name}" declined to send updates for this resource.`);
          }
          void stream.closed.then((how) => this.onStreamClosed(serverId, stream, how));
        }
      } catch (error) {
        for (const uri of uris) this.settle(serverId, uri, life, 'failed', (error as Error).message);
      }
    }
    await previous?.close().catch(() => undefined);
  }

  /** A stream dropped without our asking: listen again a few times (the server may be restarting its side). */
  private onStreamClosed(serverId: string, stream: McpSubscription, how: string): void {
    if (how !== 'remote' || this.streams.get(serverId) !== stream) return;
    this.streams.delete(serverId);
    const attempt = (this.relistens.get(serverId) ?? 0) + 1;
    this.relistens.set(serverId, attempt);
    const life = this.lives.get(serverId) ?? 0;
    for (const uri of this.urisOf(serverId)) this.settle(serverId, uri, life, 'pending');
    if (attempt > MAX_RELISTENS) {
      for (const uri of this.urisOf(serverId))
        this.settle(serverId, uri, life, 'failed', 'The update stream kept dropping; restart the server to follow this resource again.');
      return;
    }
    const timer = setTimeout(
      () => {
        const connection = this.deps.readyNow(serverId);
        if ((this.lives.get(serverId) ?? 0) !== life || !connection) return;
        void this.enqueue(serverId, () => this.relisten(serverId, connection));
      },
      (this.deps.relistenDelayMs ?? 1000) * attempt,
    );
    timer.unref?.();
  }

  private settle(serverId: string, uri: string, life: number, state: ResourceSubscriptionView['state'], error?: string): void {
    if ((this.lives.get(serverId) ?? 0) !== life) return;
    const view = this.views.get(key(serverId, uri));
    if (!view || (view.state === state && view.error === error)) return;
    view.state = state;
    if (error) view.error = error;
    else delete view.error;
    this.changed();
  }

  private enqueue<T>(serverId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(serverId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(serverId, settled);
    void settled.then(() => this.queues.get(serverId) === settled && this.queues.delete(serverId));
    return next;
  }

  private changed(): void {
    this.deps.events.emit('resourceSubscriptionsChanged', this.list());
  }
}
