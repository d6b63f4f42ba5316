/**
 * The renderer's end of an app's channel: JSON-RPC over `postMessage` with the sandbox proxy frame,
 * accepting messages only from that frame's window *and* from Patchbay's app origin, and posting
 * only to that origin. (`PostMessageTransport` of ext-apps checks the source alone and posts to `*`.)
 */
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

export class SandboxTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;

  constructor(
    private readonly frame: Window,
    private readonly origin: string,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.frame || event.origin !== this.origin) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(event.data);
    } catch (error) {
      this.onerror?.(new Error(`The app sent something that is not JSON-RPC: ${(error as Error).message}`));
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
    this.frame.postMessage(message, this.origin);
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}
