import { useId, useState } from 'react';
import { LOG_LEVELS, type LogLevel, type LogLevelDelivery, type ServerRuntime } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Select } from '../../ui/Select';

export interface LevelControlProps {
  runtime: ServerRuntime;
  /** The level chosen before (absent: never chosen). */
  level: LogLevel | undefined;
  onChange(level: LogLevel): Promise<{ delivery: LogLevelDelivery }>;
}

/** How the chosen level reaches this server, in the user's words. */
function howItApplies(runtime: ServerRuntime): { text: string; canSet: boolean } {
  if (runtime.status !== 'ready') return { text: 'Applied when the server is running.', canSet: true };
  if (runtime.era === 'modern') return { text: 'Sent with every request (2026 protocol).', canSet: true };
  if (runtime.capabilities?.includes('logging')) return { text: 'Sent to the server with logging/setLevel.', canSet: true };
  return { text: 'This server does not declare logging: it sends no log messages to filter.', canSet: false };
}

const DELIVERY: Record<LogLevelDelivery, string> = {
  'logging/setLevel': 'sent with logging/setLevel',
  'per-request': 'sent with every request',
  'next-start': 'applied when the server starts',
};

/** The server's own log level: what it should send at all (the list's Level filter only hides). */
export function LevelControl({ runtime, level, onChange }: LevelControlProps) {
  const id = useId();
  const [state, setState] = useState<{ pending: boolean; note?: string; error?: string }>({ pending: false });
  const { text, canSet } = howItApplies(runtime);

  const choose = async (next: LogLevel) => {
    setState({ pending: true });
    try {
      const { delivery } = await onChange(next);
      setState({ pending: false, note: `Level ${next} ${DELIVERY[delivery]}.` });
    } catch (error) {
      setState({ pending: false, error: messageOf(error) });
    }
  };

  return (
    <div className="log-level-control">
      <label htmlFor={id}>Server log level</label>
      <Select
        id={id}
        value={level ?? ''}
        disabled={!canSet || state.pending}
        aria-describedby={`${id}-hint`}
        onChange={(next) => void choose(next as LogLevel)}
        placeholder="Server default"
        options={LOG_LEVELS.map((l) => ({ value: l, label: l }))}
      />
      <span id={`${id}-hint`} className="muted">
        {text}
      </span>
      {state.note && (
        <span role="status" className="muted">
          {state.note}
        </span>
      )}
      {state.error && (
        <span role="alert" className="field-error">
          {state.error}
        </span>
      )}
    </div>
  );
}
