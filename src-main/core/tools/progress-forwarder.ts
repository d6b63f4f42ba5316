import type { Progress } from '@modelcontextprotocol/client';
import type { RunningToolCall, ToolRunProgress } from '@contract';
import type { HostEventBus } from '../events';
import { grown, keyOf } from './tool-call';

/** At most this many progress events per call per second reach the renderer; the last one always does. */
const MIN_INTERVAL_MS = 100;

/**
 * Turns a call's `notifications/progress` into `toolCallProgress` events (with the chat reference),
 * throttled (a server may send thousands), and keeps the latest on the running call's view so a
 * reloaded renderer sees it.
 */
export class ProgressForwarder {
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly view: RunningToolCall,
    private readonly events: HostEventBus,
  ) {}

  /** Bound, so it can be handed to the connection as is. */
  readonly push = (notification: Progress): void => {
    const progress: ToolRunProgress = {
      progress: notification.progress,
      ...(notification.total !== undefined ? { total: notification.total } : {}),
      ...(typeof notification.message === 'string' ? { message: notification.message } : {}),
    };
    this.view.progress = progress;
    const now = Date.now();
    if (now - this.last >= MIN_INTERVAL_MS) {
      this.emit();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.emit(), MIN_INTERVAL_MS - (now - this.last));
    }
  };

  /** The call ended: no more events. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private emit(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.last = Date.now();
    const { progress } = this.view;
    if (progress) this.events.emit('toolCallProgress', grown(keyOf(this.view), progress));
  }
}
