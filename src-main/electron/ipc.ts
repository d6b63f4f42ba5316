import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CallResult } from '@contract';
import type { Host } from '../core/host';
import { checkCallSize, dispatchCall } from '../core/rpc/dispatch';

/**
 * Carries the contract over Electron IPC: one channel for every call, checked for sender and size,
 * validated and dispatched by the same code the WebSocket bridge uses; host events go to the window.
 */
export function bridgeIpc(host: Host, window: BrowserWindow): () => void {
  const handle = async (event: IpcMainInvokeEvent, method: unknown, input: unknown): Promise<CallResult> => {
    // Only our own window's top frame may call; anything else (a subframe, another webContents) is refused.
    if (event.sender !== window.webContents || event.senderFrame !== window.webContents.mainFrame) {
      return { ok: false, error: { code: 'forbidden', message: 'Calls are accepted from the Patchbay window only' } };
    }
    const tooLarge = checkCallSize(Buffer.byteLength(JSON.stringify(input ?? null) ?? ''));
    if (tooLarge) return { ok: false, error: tooLarge };
    return dispatchCall(host.handlers, method, input);
  };
  ipcMain.handle(IPC_CALL_CHANNEL, handle);
  const unsubscribe = host.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_CALL_CHANNEL);
  };
}
