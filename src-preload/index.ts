/**
 * The preload bridge: exposes `window.patchbay` by looping over the contract. It holds no per-method
 * code, so a method added to the contract needs no edit here. Runs sandboxed (CommonJS, no Node).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { HOST_METHOD_NAMES, IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CallResult, type HostEvent } from './contract';

const methods = Object.fromEntries(
  HOST_METHOD_NAMES.map((method) => [
    method,
    (input?: unknown): Promise<CallResult> => ipcRenderer.invoke(IPC_CALL_CHANNEL, method, input),
  ]),
);

contextBridge.exposeInMainWorld('patchbay', {
  methods,
  subscribe(listener: (event: HostEvent) => void): () => void {
    // Never hand the raw IpcRendererEvent (and its sender) to the page.
    const forward = (_event: IpcRendererEvent, hostEvent: HostEvent) => listener(hostEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
  },
});
