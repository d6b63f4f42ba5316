/**
 * One app in its frame, with the host side of the app protocol: ext-apps' `AppBridge`, made without
 * an MCP client (the client lives in the host core), whose handlers call Patchbay's host methods.
 * Loaded lazily (with the bridge library) by `AppView`, so screens without apps never pay for it.
 *
 * The frame is the frame proxy on Patchbay's app origin, sandboxed by its page's policy (`sandbox
 * allow-scripts allow-same-origin allow-forms`, see `PROXY_SANDBOX` in the core: the proxy needs its
 * real origin to be told apart — a different origin from ours, so it can touch nothing of this page;
 * the proxy itself runs the app in an inner frame without `allow-same-origin`). No `allow-popups`, no
 * `allow-top-navigation`, no `allow-modals`.
 */
import { AppBridge, type McpUiDisplayMode, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppModelContextView, AppViewGrant, HostApi, JsonObject } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { AppLoading } from './AppLoading';
import { FrameTransport } from './frame-transport';

/** Something the app asks that needs the user's click. */
export type AppAsk = { kind: 'message'; text: string } | { kind: 'link'; url: string };

export interface AppFrameProps {
  api: HostApi;
  grant: AppViewGrant;
  toolInput: Record<string, unknown>;
  toolResult: JsonObject;
  displayMode: 'inline' | 'fullscreen';
  onDisplayMode(mode: 'inline' | 'fullscreen'): void;
  /** Resolves true when the user agreed (and the host did it); false when they dismissed it or the app gave up (`signal`). */
  onAsk(ask: AppAsk, signal: AbortSignal): Promise<boolean>;
  onContext(context: AppModelContextView): void;
  /** The app failed to start or its channel broke. */
  onError(message: string): void;
}

/** Inline frames grow with their content up to this height; full screen takes the window. */
const MAX_INLINE_HEIGHT = 720;
const INITIAL_HEIGHT = 160;
/** An app that has not said it is initialized by then is reported as not starting. */
const START_TIMEOUT_MS = 30_000;

export default function AppFrame(props: AppFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  // The handlers read the latest props (callbacks, the result) without re-creating the bridge.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  // Until the app says it is initialized the frame is a blank page (often for seconds): a loading
  // state shows over it; if it never gets there, the view's error says so.
  const [phase, setPhase] = useState<'loading' | 'ready' | 'failed'>('loading');
  const { grant, displayMode } = props;
  const theme = useTheme();
  const themeRef = useRef(theme);

  useEffect(() => {
    const iframe = frame.current;
    const target = iframe?.contentWindow;
    if (!iframe || !target) return;
    const call = latest.current;
    const bridge = new AppBridge(
      null,
      { name: 'Patchbay', version: '0.1.0' },
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
        sandbox: { permissions: {}, csp: withoutRefused(grant.csp) },
      },
      { hostContext: hostContext(grant, call.displayMode, iframe, themeRef.current) },
    );
    bridgeRef.current = bridge;
    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: grant.html, csp: withoutRefused(grant.csp) });
    // Whether the loading state has ended (started, or failed to).
    let settled = false;
    const startTimer = setTimeout(
      () => fail(`The app of ${grant.serverName} did not start within ${START_TIMEOUT_MS / 1000} s. Close it and show it again to retry.`),
      START_TIMEOUT_MS,
    );
    function fail(message: string) {
      if (!settled) {
        settled = true;
        clearTimeout(startTimer);
        setPhase('failed');
      }
      latest.current.onError(message);
    }
    bridge.oninitialized = () => {
      // Even after a failure was reported (a late start, an error on the way): the app runs, so it shows.
      clearTimeout(startTimer);
      settled = true;
      setPhase('ready');
      void bridge.sendToolInput({ arguments: latest.current.toolInput });
      void bridge.sendToolResult(latest.current.toolResult as Parameters<AppBridge['sendToolResult']>[0]);
    };
    bridge.onsizechange = ({ height: wanted }) => {
      if (typeof wanted === 'number' && Number.isFinite(wanted)) setHeight(Math.max(40, Math.min(MAX_INLINE_HEIGHT, Math.ceil(wanted))));
    };
    bridge.oncalltool = async (params) => {
      const { result } = await latest.current.api.callToolFromApp({
        viewId: grant.viewId,
        tool: params.name,
        args: params.arguments ?? {},
      });
      return result as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
    };
    bridge.onreadresource = async ({ uri }) => {
      const { result } = await latest.current.api.readResourceFromApp({ viewId: grant.viewId, uri });
      return result as Awaited<ReturnType<NonNullable<AppBridge['onreadresource']>>>;
    };
    bridge.onmessage = async ({ content }, extra) => {
      const text = content
        .map((block) => (block.type === 'text' ? block.text : `[${block.type} content]`))
        .join('\n')
        .trim();
      return { isError: !(text && (await latest.current.onAsk({ kind: 'message', text }, extra.mcpReq.signal))) };
    };
    bridge.onopenlink = async ({ url }, extra) => ({ isError: !(await latest.current.onAsk({ kind: 'link', url }, extra.mcpReq.signal)) });
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const context = await latest.current.api.setAppModelContext({
        viewId: grant.viewId,
        content: (content ?? []) as Record<string, unknown>[],
        ...(structuredContent ? { structuredContent } : {}),
      });
      latest.current.onContext(context);
      return {};
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      const next: McpUiDisplayMode = mode === 'fullscreen' || mode === 'inline' ? mode : latest.current.displayMode;
      latest.current.onDisplayMode(next);
      return { mode: next };
    };
    bridge.onerror = (error) => fail(error.message);
    const transport = new FrameTransport(target, grant.frameOrigin);
    // Patchbay's shortcuts pressed in the app: as if pressed on the frame, so the page's own handlers run them.
    transport.onshortcut = (press) =>
      iframe.dispatchEvent(new KeyboardEvent('keydown', { ...press, altKey: false, bubbles: true, cancelable: true }));
    let closed = false;
    void bridge.connect(transport).then(
      () => {
        // Listening before the proxy can say it is ready: only now does the frame load it.
        if (!closed) iframe.src = grant.frameUrl;
      },
      (error: Error) => fail(error.message),
    );
    return () => {
      closed = true;
      clearTimeout(startTimer);
      bridgeRef.current = null;
      // The frame goes with this component: the app is told first (best effort, it cannot hold us up).
      void bridge
        .teardownResource({}, { timeout: 1_000 })
        .catch(() => undefined)
        .finally(() => void bridge.close());
    };
  }, [grant]);

  useEffect(() => {
    const iframe = frame.current;
    const bridge = bridgeRef.current;
    if (!iframe || !bridge) return;
    const context = hostContext(grant, displayMode, iframe, themeRef.current);
    void bridge.sendHostContextChange({ displayMode, containerDimensions: context.containerDimensions });
  }, [displayMode, grant]);

  // The user switched the theme (or the system did, under "System"): the app is told.
  useEffect(() => {
    if (themeRef.current === theme) return;
    themeRef.current = theme;
    void bridgeRef.current?.sendHostContextChange({ theme });
  }, [theme]);

  return (
    <div className="app-frame-box" data-phase={phase} aria-busy={phase === 'loading'}>
      {phase === 'loading' && <AppLoading />}
      <iframe
        ref={frame}
        className="app-frame"
        title={`App of ${grant.tool} (${grant.serverName})`}
        referrerPolicy="no-referrer"
        style={displayMode === 'inline' ? { height } : undefined}
      />
    </div>
  );
}

/** What the app is told about where it runs. */
function hostContext(
  grant: AppViewGrant,
  displayMode: 'inline' | 'fullscreen',
  iframe: HTMLIFrameElement,
  theme: 'light' | 'dark',
): McpUiHostContext {
  const width = iframe.parentElement?.clientWidth || 600;
  return {
    toolInfo: { tool: grant.toolInfo as NonNullable<McpUiHostContext['toolInfo']>['tool'] },
    theme,
    displayMode,
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions: displayMode === 'inline' ? { width, maxHeight: MAX_INLINE_HEIGHT } : { width, height: window.innerHeight - 48 },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: 'Patchbay',
    platform: 'desktop',
  };
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme the page shows: the setting, or under "System" the system's, following changes. */
function useTheme(): 'light' | 'dark' {
  const chosen = useAppStore((s) => s.settings?.theme ?? 'system');
  const [systemDark, setSystemDark] = useState(() => window.matchMedia?.(DARK_QUERY).matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.(DARK_QUERY);
    if (!query) return;
    const onChange = (event: MediaQueryListEvent) => setSystemDark(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return systemDark ? 'dark' : 'light';
}

function withoutRefused(csp: AppViewGrant['csp']) {
  const { refused: _refused, ...applied } = csp;
  return applied;
}
