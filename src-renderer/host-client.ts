import {
  HOST_METHOD_NAMES,
  type CallResult,
  type HostApi,
  type HostError,
  type HostEvent,
  type HostMethodName,
} from '../src-preload/contract';

/** What a transport must do for the renderer: make one call, and deliver pushed events. */
export interface HostTransport {
  call(method: HostMethodName, input: unknown): Promise<CallResult>;
  /** Subscribes to host events; returns the unsubscribe function. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Connection state changes (web mode reconnects; Electron IPC is always connected). */
  onConnectionChange?(listener: (state: ConnectionState) => void): () => void;
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

/** A failed host call, carrying the contract's error shape. */
export class HostCallFailed extends Error implements HostError {
  constructor(
    readonly code: HostError['code'],
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'HostCallFailed';
  }
}

/** Builds the typed `HostApi` by looping over the contract: no per-method code anywhere. */
export function createHostApi(transport: HostTransport): HostApi {
  const api: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const method of HOST_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      const result = await transport.call(method, input);
      if (!result.ok) throw new HostCallFailed(result.error.code, result.error.message, result.error.data);
      return result.value;
    };
  }
  return api as HostApi;
}
