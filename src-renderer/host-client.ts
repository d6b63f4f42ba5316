import type { CallResult, HostEvent, HostMethodName } from '@contract';

/** What a transport must do for the renderer: make one call, and deliver pushed events. */
export interface HostTransport {
  call(method: HostMethodName, input: unknown): Promise<CallResult>;
  /** Subscribes to host events; returns the unsubscribe function. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Connection state changes (web mode reconnects; Electron IPC is always connected). */
  onConnectionChange?(listener: (state: ConnectionState) => void): () => void;
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';
