/**
 * The renderer's end of an app's channel: JSON-RPC over `postMessage` with the frame proxy frame,
 * accepting messages only from that frame's window *and* from Patchbay's app origin, and posting
 * only to that origin. (`PostMessageTransport` of ext-apps checks the source alone and posts to `*`.)
 */
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { APP_SHORTCUT_METHOD } from '@contract';

/** One of Patchbay's shortcuts, pressed while the app's frame had the focus (see `APP_SHORTCUT_METHOD`). */
export interface AppShortcutPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** A shortcut pressed in the app's frame: never passed to the app protocol. */
  onshortcut?: (press: AppShortcutPress) => void;
  private started = false;
  /**
   * What the host sends before the proxy has said anything: the frame has not loaded it yet (it is
   * still an empty page of the renderer's origin), so posting then fails with an origin mismatch.
   */
  private heard = false;
  private readonly waiting: JSONRPCMessage[] = [];

  constructor(
    private readonly frame: Window,
    private readonly origin: string,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.frame || event.origin !== this.origin) return;
    if (!this.heard) {
      this.heard = true;
      for (const message of this.waiting.splice(0)) this.frame.postMessage(message, this.origin);
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(event.data);
    } catch (error) {
      this.onerror?.(new Error(`The app sent something that is not JSON-RPC: ${(error as Error).message}`));
      return;
    }
    if ('method' in message && message.method === APP_SHORTCUT_METHOD && !('id' in message)) {
      const press = shortcutPress(message.params);
      if (press) this.onshortcut?.(press);
      return;
    }
    this.onmessage?.(message);
  };

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    window.addEventListener('message', this.listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.heard) this.frame.postMessage(message, this.origin);
    else this.waiting.push(message);
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}

/** The press in a shortcut notification, if it is one (what the app's frame sends is never trusted). */
function shortcutPress(params: unknown): AppShortcutPress | null {
  if (!params || typeof params !== 'object') return null;
  const { key, ctrlKey, metaKey, shiftKey } = params as Record<string, unknown>;
  if (typeof key !== 'string' || key.length !== 1) return null;
  return { key, ctrlKey: ctrlKey === true, metaKey: metaKey === true, shiftKey: shiftKey === true };
}
