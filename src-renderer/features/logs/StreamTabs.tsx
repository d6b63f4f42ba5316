import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { LOG_STREAMS, type LogStream } from '@contract';
import { STREAM_LABELS } from './log-format';

export interface StreamTabsProps {
  /** Accessible name of the tab list ("echo log streams"). */
  label: string;
  stream: LogStream;
  onStreamChange(stream: LogStream): void;
  /** The open stream's view (only the open tab is rendered). */
  children: ReactNode;
}

/** A tab per log stream (Output, Messages, Protocol, Host), the open one showing `children`. */
export function StreamTabs({ label, stream, onStreamChange, children }: StreamTabsProps) {
  return (
    <Tabs.Root value={stream} onValueChange={(value) => onStreamChange(value as LogStream)} className="tabs">
      <Tabs.List aria-label={label} className="tab-list">
        {LOG_STREAMS.map((s) => (
          <Tabs.Trigger key={s} value={s}>
            {STREAM_LABELS[s]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {LOG_STREAMS.map((s) => (
        <Tabs.Content key={s} value={s}>
          {s === stream && children}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
