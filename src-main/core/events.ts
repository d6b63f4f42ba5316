import type { HostEvent, HostEventName, HostEvents } from '@contract';

export type HostEventListener = (event: HostEvent) => void;

/**
 * The host's outgoing events. Every bridge (IPC, WebSocket, tests) subscribes with one listener and
 * forwards what it gets; a listener that throws cannot break the host or the other listeners.
 */
export class HostEventBus {
  private readonly listeners = new Set<HostEventListener>();

  subscribe(listener: HostEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<K extends HostEventName>(name: K, payload: HostEvents[K]): void {
    const event = { name, payload } as HostEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error(`[patchbay] event listener failed on ${name}:`, error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
