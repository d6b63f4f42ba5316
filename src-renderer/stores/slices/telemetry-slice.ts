import type { TelemetryView } from '@contract';
import type { StoreSlice } from './slice';

/** Telemetry export: its setting and its counts (spans exported, dropped), kept live by `telemetryChanged`. */
export interface TelemetryState {
  telemetry: TelemetryView | null;
}

export const telemetrySlice: StoreSlice<TelemetryState> = {
  initial: { telemetry: null },
  apply: (_state, event) => (event.name === 'telemetryChanged' ? { telemetry: event.payload } : undefined),
};
