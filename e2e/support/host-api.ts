/**
 * The typed host contract over a raw WebSocket, signed in like a tab (as the renderer's transport
 * carries it): for specs that set up state through the host rather than through the page.
 */
import { createHostApi, type HostMethodName } from '@contract';
import { ContractSocket, signIn } from './raw-client';
import type { WebHost } from './web-host';

/** Calls throw on errors; `server(id)` reads one server from a fresh snapshot; close the socket when done. */
export async function hostApi(webHost: WebHost) {
  const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
    origin: webHost.origin,
    credential: (await signIn(webHost.url)).credential,
  });
  let id = 0;
  const api = createHostApi(async (method: HostMethodName, input) => (await socket.call(++id, method, input)).result);
  const server = async (serverId: string) => (await api.getSnapshot()).servers.find((s) => s.config.id === serverId)!;
  return { socket, api, server };
}
