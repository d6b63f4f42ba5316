import type { Client, ListRootsResult, Root } from '@modelcontextprotocol/client';
import type { ConnectionPlugin, ServerRef } from '../server-fleet/connection-plugins';
import type { ServerState } from '../servers/connection/server-state';
import type { RootsConsentBroker } from './roots-consent';
import type { RootsChange, RootsService, SharedFolder } from './roots-service';

export interface RootsConnectionsOptions {
  service: RootsService;
  consent: RootsConsentBroker;
  /**
   * How long a 2025-era `roots/list` waits for the user's first answer before it is answered with what
   * is decided so far (nothing): well inside the server's own request timeout (60 s in the reference
   * SDK). The question stays open; an answer given later reaches the server through list_changed.
   */
  holdMs: number;
  /** A 2026-era round waits up to this long (the server holds no request open; our own call waits). */
  modernHoldMs: number;
  /** Restarts a running server (used when the user takes its last folder away; see `notify`). */
  restartServer(id: string): void;
  /** The folders a running sandboxed server's sandbox was built with (undefined: not sandboxed). */
  sandboxedFolders?(id: string): readonly SharedFolder[] | undefined;
  onWarning?(server: ServerRef, message: string): void;
}

/** The live side of one server's current session. */
interface Session {
  server: ServerRef;
  client: Client;
  /** JSON of the last roots list answered; undefined until the server asked. */
  lastSent?: string;
  /** roots/list answers being prepared: they will carry the newest list anyway. */
  inFlight: number;
  /** A question for this session expired unanswered: do not ask again until the next session. */
  expired: boolean;
}

const GONE: ReadonlySet<ServerState['status']> = new Set(['stopped', 'error', 'crashed']);
const keyOf = (roots: Root[]) => JSON.stringify(roots.map((r) => [r.uri, r.name ?? '']));

/**
 * Roots on every server connection: declares `roots: { listChanged: true }`, answers `roots/list`
 * (a 2025-era request, or a 2026-era `input_required` round: the SDK routes both to the same handler)
 * with exactly the folders shared with that server — asking the user first when undecided — and tells
 * each affected connected server when its list changes.
 */
export class RootsConnections {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: RootsConnectionsOptions) {}

  /** The plugin the fleet merges into every connection. */
  readonly plugin: ConnectionPlugin = {
    capabilities: { roots: { listChanged: true } },
    install: (client, server) => {
      const session: Session = { server, client, inFlight: 0, expired: false };
      this.sessions.set(server.id, session);
      client.setRequestHandler('roots/list', (_request, ctx) => this.answer(session, ctx.mcpReq.signal));
    },
    onStateChange: (server, state) => {
      if (!GONE.has(state.status)) return;
      this.sessions.delete(server.id);
      this.options.consent.withdraw(server.id);
    },
    onRemoved: (server) => {
      this.sessions.delete(server.id);
      this.options.consent.withdraw(server.id);
    },
  };

  /** Answers one `roots/list`. Never rejects: at worst the server gets what is decided (maybe nothing). */
  private async answer(session: Session, signal: AbortSignal): Promise<ListRootsResult> {
    const { service, consent } = this.options;
    session.inFlight += 1;
    try {
      if (!service.policy(session.server.id) && service.hasRoots() && !session.expired) {
        const modern = session.client.getProtocolEra() === 'modern';
        const outcome = await waitAtMost(consent.ask(session.server), modern ? this.options.modernHoldMs : this.options.holdMs, signal);
        if (outcome === 'timed-out') session.expired = true;
      }
      const roots = await service.sharedWith(session.server.id);
      if (this.sessions.get(session.server.id) === session) session.lastSent = keyOf(roots);
      service.recordSent(session.server, roots);
      return { roots };
    } finally {
      session.inFlight -= 1;
    }
  }

  /**
   * Tells every affected connected server about a change. 2025-era servers that have asked get
   * `notifications/roots/list_changed` when their list differs from what they last got (2026-era ones
   * simply get the new list in their next round). An undecided server that asked while there were no
   * folders is nudged the same way, so it asks again and the user is asked.
   *
   * Revocation: a server told "no folders any more" may keep what it had (the reference filesystem
   * server ignores an empty list), so when the user takes a server's last folder away it is restarted:
   * the new process starts with nothing. Fewer-but-some folders are a plain list change.
   */
  async notify(change: RootsChange): Promise<void> {
    const { service, consent } = this.options;
    await Promise.all(
      [...this.sessions.values()].map(async (session) => {
        if (await this.restartSandboxIfMoved(session)) return;
        if (session.lastSent === undefined || session.inFlight > 0 || session.client.getProtocolEra() !== 'legacy') return;
        const id = session.server.id;
        const roots = await service.sharedWith(id);
        const key = keyOf(roots);
        const nudge = !service.policy(id) && service.hasRoots() && !session.expired && !consent.openFor(id);
        if (key === session.lastSent && !nudge) return;
        if (change.revoke && roots.length === 0 && session.lastSent !== '[]') {
          session.lastSent = undefined;
          service.recordNote(session.server, 'Restarted so it loses access to the folders taken away');
          this.options.restartServer(id);
          return;
        }
        await session.client.sendRootsListChanged().catch((error: unknown) => {
          this.options.onWarning?.(
            session.server,
            `Could not tell server "${session.server.name}" its roots changed: ${(error as Error).message}`,
          );
        });
      }),
    );
  }

  /**
   * A sandboxed server can only use the folders its sandbox was built with: when the folders shared
   * with it change, it is restarted inside a new boundary (the user was told so on the share controls),
   * and asks for its roots again as it starts.
   */
  private async restartSandboxIfMoved(session: Session): Promise<boolean> {
    const id = session.server.id;
    const built = this.options.sandboxedFolders?.(id);
    if (built === undefined) return false;
    const now = await this.options.service.sharedFolders(id);
    // A folder turned read-only (or back) moves the boundary as much as one added or taken away.
    const same = now.length === built.length && now.every((f) => built.some((b) => b.path === f.path && b.readOnly === f.readOnly));
    if (same || this.sessions.get(id) !== session) return false;
    this.sessions.delete(id);
    this.options.service.recordNote(session.server, 'Restarted so its sandbox holds exactly the folders shared with it');
    this.options.restartServer(id);
    return true;
  }
}

/** Resolves with the promise's value, or undefined after `ms` or when `signal` aborts, whichever is first. */
function waitAtMost<T>(promise: Promise<T>, ms: number, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve) => {
    const done = (value: T | undefined) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(undefined);
    const timer = setTimeout(() => done(undefined), ms);
    if (signal.aborted) return done(undefined);
    signal.addEventListener('abort', onAbort);
    void promise.then(done);
  });
}
