import type { CallResult, HostEvent, HostMethodName } from '@contract';
import type { HostTransport } from '../host-client';

/** What the preload exposes as `window.patchbay` (see src-preload/index.ts). */
export interface PreloadBridge {
  methods: Record<HostMethodName, (input?: unknown) => Promise<CallResult>>;
  subscribe(listener: (event: HostEvent) => void): () => void;
}

declare global {
  interface Window {
    patchbay?: PreloadBridge;
  }
}

/** Electron: calls go through the preload's contextBridge, which loops over the same contract. */
export function createElectronTransport(bridge: PreloadBridge): HostTransport {
  return {
    call: (method, input) => bridge.methods[method](input),
    subscribe: (listener) => bridge.subscribe(listener),
  };
}
