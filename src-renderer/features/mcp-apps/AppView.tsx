/**
 * A tool's app beside its result (MCP Apps): asks the host for the view (its `ui://` resource, read
 * through the server, and a one-time frame page), shows it in a frame clearly marked as the
 * server's, and puts what the app asks that needs the user — a message for the model, a link to
 * open — in front of the user, who decides. The app's context for the model is shown as it will go
 * with the next message.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { AppModelContextView, AppViewGrant, JsonObject } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import type { AppAsk } from './AppFrame';
import { AppAskPrompt, type PendingAsk } from './AppAskPrompt';
import { AppLoading } from './AppLoading';
import './mcp-apps.css';

const AppFrame = lazy(() => import('./AppFrame'));

/** What an app that sends a message outside a chat is told (the JSON-RPC error of its `ui/message`). */
const NO_CHAT_HERE =
  'There is no chat here (the app runs from a tool in Patchbay’s Tools tab), so the message was not sent. Patchbay shows it to the user, who can open a chat with it.';

export interface AppViewProps {
  serverId: string;
  serverName: string;
  tool: string;
  toolInput: Record<string, unknown>;
  toolResult: JsonObject;
  /** The conversation the card is in: the app's messages and model context go there. */
  conversationId?: string;
}

export function AppView({ serverId, serverName, tool, toolInput, toolResult, conversationId }: AppViewProps) {
  const api = useAppStore((s) => s.api);
  const [grant, setGrant] = useState<AppViewGrant | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(true);
  const [mode, setMode] = useState<'inline' | 'fullscreen'>('inline');
  const [asks, setAsks] = useState<PendingAsk[]>([]);
  const [context, setContext] = useState<AppModelContextView | null>(null);
  const nextAsk = useRef(0);

  useEffect(() => {
    if (!open) return;
    let live = true;
    let viewId: string | undefined;
    api.openAppView({ serverId, tool, parentOrigin: window.location.origin, ...(conversationId ? { conversationId } : {}) }).then(
      (opened) => {
        viewId = opened.viewId;
        if (live) setGrant(opened);
        else void api.closeAppView({ viewId }).catch(() => undefined);
      },
      (failure: unknown) => live && setError(messageOf(failure)),
    );
    return () => {
      live = false;
      setGrant(null);
      if (viewId) void api.closeAppView({ viewId }).catch(() => undefined);
    };
  }, [api, serverId, tool, conversationId, open]);

  useEffect(() => {
    if (mode !== 'fullscreen') return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMode('inline');
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode]);

  const onAsk = useCallback(
    (ask: AppAsk, signal: AbortSignal) =>
      new Promise<boolean>((resolve, reject) => {
        // No chat here (the Tools tab): the app hears so at once instead of waiting until it gives up;
        // the user still sees its message, and may open a chat with it.
        if (ask.kind === 'message' && !conversationId) {
          const id = ++nextAsk.current;
          setAsks((list) => [...list, { id, ask, settle: () => setAsks((left) => left.filter((a) => a.id !== id)) }]);
          reject(new Error(NO_CHAT_HERE));
          return;
        }
        const id = ++nextAsk.current;
        const settle = (agreed: boolean) => {
          signal.removeEventListener('abort', withdrawn);
          setAsks((list) => list.filter((a) => a.id !== id));
          resolve(agreed);
        };
        // The app stopped waiting (its own timeout, the frame went away): the question goes too.
        const withdrawn = () => settle(false);
        if (signal.aborted) return resolve(false);
        signal.addEventListener('abort', withdrawn, { once: true });
        setAsks((list) => [...list, { id, ask, settle }]);
      }),
    [conversationId],
  );

  const label = `App of ${tool} from ${serverName}`;
  if (!open) {
    return (
      <div className="app-view app-view-closed">
        <span className="muted">{label} closed.</span>{' '}
        <button
          type="button"
          className="link"
          onClick={() => {
            setError(null);
            setOpen(true);
          }}
        >
          Show app
        </button>
      </div>
    );
  }
  return (
    <section className="app-view" data-mode={mode} data-border={grant?.prefersBorder === false ? 'none' : 'box'} aria-label={label}>
      <header className="app-view-head">
        <span className="app-view-title">
          App from <strong>{serverName}</strong> <span className="muted">· {tool}</span>
        </span>
        {grant && <NetworkNote grant={grant} />}
        <span className="app-view-actions">
          <button type="button" onClick={() => setMode(mode === 'inline' ? 'fullscreen' : 'inline')}>
            {mode === 'inline' ? 'Full screen' : 'Exit full screen'}
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Close app
          </button>
        </span>
      </header>
      {error && (
        <p role="alert" className="tool-call-error">
          {error}
        </p>
      )}
      {/* Above the frame: an app resizing itself cannot move these under the pointer (see AppAskPrompt). */}
      {asks.map((pending) => (
        <AppAskPrompt key={pending.id} pending={pending} serverName={serverName} conversationId={conversationId} />
      ))}
      {!grant && !error && (
        <div className="app-frame-box" aria-busy="true">
          <AppLoading />
        </div>
      )}
      {grant && (
        <Suspense
          fallback={
            <div className="app-frame-box" aria-busy="true">
              <AppLoading />
            </div>
          }
        >
          <AppFrame
            api={api}
            grant={grant}
            toolInput={toolInput}
            toolResult={toolResult}
            displayMode={mode}
            onDisplayMode={setMode}
            onAsk={onAsk}
            onContext={setContext}
            onError={setError}
          />
        </Suspense>
      )}
      {context && (
        <div className="app-context" role="status" aria-label="Context for the model from the app">
          <span className="result-kind">Context for the model</span> goes with your next message:
          <pre>{context.text}</pre>
        </div>
      )}
    </section>
  );
}

/** What the frame may reach on the network, in words (none declared: nothing). */
function NetworkNote({ grant }: { grant: AppViewGrant }) {
  const { connectDomains, resourceDomains, refused } = grant.csp;
  const reach = [...new Set([...connectDomains, ...resourceDomains])];
  return (
    <span className="muted app-view-network" title={refused.length > 0 ? `Refused: ${refused.join(', ')}` : undefined}>
      {reach.length === 0 ? 'No network access' : `May reach ${reach.join(', ')}`}
      {refused.length > 0 && ` · ${refused.length} refused`}
    </span>
  );
}
